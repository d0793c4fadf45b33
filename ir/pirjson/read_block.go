package pirjson

import (
	"github.com/pirdrr/drr/ir"
)

// program reads {"regions":[{…}]}: exactly one region holding one block, the program body.
func (r *reader) program() error {
	s := &r.s
	s.ws()
	objOff := s.pos
	haveRegions := false
	err := s.object(func(key []byte, keyOff int) error {
		if string(key) != "regions" {
			return s.errAt(keyOff, "unknown key %q", key)
		}
		if haveRegions {
			return s.errAt(keyOff, "duplicate key %q", key)
		}
		haveRegions = true
		s.ws()
		arrOff := s.pos
		n := 0
		err := s.array(func(i int) error {
			if i > 0 {
				return s.errAt(s.pos, "the program has more than one region")
			}
			n++
			return r.region(r.prog.Module, 0, true)
		})
		if err == nil && n == 0 {
			return s.errAt(arrOff, "the program has no region")
		}
		return err
	})
	if err != nil {
		return err
	}
	if !haveRegions {
		return s.errAt(objOff, "missing key \"regions\"")
	}
	return r.finishKwargs(r.prog.Module, objOff)
}

// region reads {"#":"region_N","blocks":[…]} into region ri of op. The program region (top) must hold exactly
// one block, the existing body; other regions get their blocks added.
func (r *reader) region(op *ir.Op, ri int, top bool) error {
	s := &r.s
	s.ws()
	objOff := s.pos
	var haveID, haveBlocks bool
	reg := op.Region(ri)
	err := s.object(func(key []byte, keyOff int) error {
		switch string(key) {
		case "#":
			if haveID {
				return s.errAt(keyOff, "duplicate key %q", key)
			}
			haveID = true
			_, err := s.str()
			return err
		case "blocks":
			if haveBlocks {
				return s.errAt(keyOff, "duplicate key %q", key)
			}
			haveBlocks = true
			s.ws()
			arrOff := s.pos
			n := 0
			err := s.array(func(i int) error {
				var blk *ir.Block
				if top {
					if i > 0 {
						return s.errAt(s.pos, "the program region has more than one block")
					}
					blk = r.prog.Body()
				} else {
					blk = reg.AddBlock()
				}
				n++
				return r.block(blk, op)
			})
			if err == nil && top && n == 0 {
				return s.errAt(arrOff, "the program region has no block")
			}
			return err
		}
		return s.errAt(keyOff, "unknown key %q", key)
	})
	if err != nil {
		return err
	}
	if !haveID {
		return s.errAt(objOff, "missing key \"#\"")
	}
	if !haveBlocks {
		return s.errAt(objOff, "missing key \"blocks\"")
	}
	return nil
}

// block reads {"#":"block_N","args":[…],"kwargs":[…],"ops":[…]} into blk, a block of a region of owner.
func (r *reader) block(blk *ir.Block, owner *ir.Op) error {
	s := &r.s
	s.ws()
	objOff := s.pos
	var haveID, haveArgs, haveKwargs, haveOps, opsDeferred bool
	var opsMark mark
	var keys []string
	err := s.object(func(key []byte, keyOff int) error {
		switch string(key) {
		case "#":
			if haveID {
				return s.errAt(keyOff, "duplicate key %q", key)
			}
			haveID = true
			_, err := s.str()
			return err
		case "args":
			if haveArgs {
				return s.errAt(keyOff, "duplicate key %q", key)
			}
			haveArgs = true
			return s.array(func(int) error { return r.blockArg(blk, false, nil) })
		case "kwargs":
			if haveKwargs {
				return s.errAt(keyOff, "duplicate key %q", key)
			}
			haveKwargs = true
			return s.array(func(int) error { return r.blockArg(blk, true, &keys) })
		case "ops":
			if haveOps {
				return s.errAt(keyOff, "duplicate key %q", key)
			}
			haveOps = true
			if !haveArgs {
				// The ops may use arguments that come later: read them after the arguments.
				opsDeferred = true
				opsMark = s.mark()
				return s.skip()
			}
			return r.ops(blk)
		}
		return s.errAt(keyOff, "unknown key %q", key)
	})
	if err != nil {
		return err
	}
	for _, k := range []struct {
		have bool
		name string
	}{{haveID, "#"}, {haveArgs, "args"}, {haveOps, "ops"}} {
		if !k.have {
			return s.errAt(objOff, "missing key %q", k.name)
		}
	}
	r.kwargKeys[owner] = append(r.kwargKeys[owner], keys)
	if opsDeferred {
		end := s.mark()
		s.reset(opsMark)
		s.pushKey([]byte("ops"))
		err = r.ops(blk)
		s.pop()
		s.reset(end)
	}
	return err
}

// blockArg reads a block argument {"#":-1,"TT":…} (or a keyword argument, which also has "key") and adds it to
// blk. A keyword entry without a key that repeats a positional argument of blk is skipped: Paddle's writer stores
// a copy of "args" under "kwargs" when a block has keyword arguments.
func (r *reader) blockArg(blk *ir.Block, kw bool, keys *[]string) error {
	s := &r.s
	s.ws()
	objOff := s.pos
	var haveID, haveType, haveKey bool
	var id int64
	var idOff int
	var typ ir.Type
	var key string
	err := s.object(func(k []byte, keyOff int) error {
		switch string(k) {
		case "#":
			if haveID {
				return s.errAt(keyOff, "duplicate key %q", k)
			}
			haveID = true
			s.ws()
			idOff = s.pos
			v, err := s.integer(-1<<63, 1<<63-1)
			id = v
			return err
		case "TT":
			if haveType {
				return s.errAt(keyOff, "duplicate key %q", k)
			}
			haveType = true
			t, err := r.typ()
			typ = t
			return err
		case "key":
			if !kw {
				break
			}
			if haveKey {
				return s.errAt(keyOff, "duplicate key %q", k)
			}
			haveKey = true
			b, err := s.str()
			key = string(b)
			return err
		}
		return s.errAt(keyOff, "unknown key %q", k)
	})
	if err != nil {
		return err
	}
	if !haveID {
		return s.errAt(objOff, "missing key \"#\"")
	}
	if !haveType {
		return s.errAt(objOff, "missing key \"TT\"")
	}
	if id >= 0 {
		return s.errAt(idOff, "block argument id %d is not negative", id)
	}
	if kw && !haveKey {
		if v := r.vals.get(id); v != nil && v.IsBlockArg() && v.OwnerBlock() == blk && v.Type() == typ {
			return nil
		}
		return s.errAt(objOff, "missing key \"key\"")
	}
	v := blk.AddArg(typ)
	if !r.vals.set(id, v) {
		return s.errAt(idOff, "value id %d is already defined", id)
	}
	if kw {
		*keys = append(*keys, key)
	}
	return nil
}

// finishKwargs records the keyword-argument keys of op's blocks in its kwargsAttr attribute, if any block has them.
// off is where op's JSON starts, for the error.
func (r *reader) finishKwargs(op *ir.Op, off int) error {
	blocks := r.kwargKeys[op]
	delete(r.kwargKeys, op)
	has := false
	for _, k := range blocks {
		if len(k) > 0 {
			has = true
		}
	}
	if !has {
		return nil
	}
	if op.Attr(kwargsAttr) != nil {
		return r.s.errAt(off, "attribute %s is reserved for keyword arguments", kwargsAttr)
	}
	per := make([]ir.Attribute, len(blocks))
	for i, keys := range blocks {
		strs := make([]ir.Attribute, len(keys))
		for j, k := range keys {
			strs[j] = r.ctx.Str(k)
		}
		per[i] = r.ctx.Array(strs...)
	}
	ir.NewRewriter(r.ctx, nil).SetAttr(op, kwargsAttr, r.ctx.Array(per...))
	return nil
}

// ops reads the op list of blk.
func (r *reader) ops(blk *ir.Block) error {
	return r.s.array(func(int) error {
		err := r.op(blk)
		if r.mapped != nil {
			r.mapped.Passed(r.s.pos)
		}
		return err
	})
}
