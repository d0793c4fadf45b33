// Package ir is pirdrr's model of a Paddle PIR program: the IR that rules match and rewrite, following the design of
// Paddle's PIR (seeds 000–004) with the parts a rewrite engine needs made explicit.
//
// # The model
//
// A Program is a builtin.module Op whose single Region holds one Block, the program body, plus the weights: a table
// from parameter name to Variable {type, optional data, mutable}. A Block is an ordered list of Ops and may have
// arguments. An Op has an OpInfo (its kind), operands, results, attributes and regions; the regions of pd_op.if and
// pd_op.while hold their branches and body (seed 001). A Value is an op result or a block argument; it knows its
// Type, its definition and its uses.
//
//	Program ─ Module (Op) ─ Region ─ Block ─ Op ─ Region ─ Block ─ Op …
//	                                          │
//	                                          ├ operands: Use → Value (result of an earlier Op, or a Block argument)
//	                                          ├ results:  Value ← Uses
//	                                          └ attrs:    name → Attribute
//
// The IR does not rely on the names of values: %12 in a printed program is a print-order number (see Numbering),
// not something the IR stores.
//
// # Types, attributes and the Context
//
// Types (Type) and attributes (Attribute) are immutable and interned by a Context, so equality is pointer equality.
// The Context also holds the registered dialects: their op schemas are data (OpSchema: operands, results,
// attributes with kinds and defaults, traits, inplace and view mappings, a result-type rule), parsed from catalog
// files (ParseCatalog; the engine embeds builtin, cf and pd_op, see LoadDefaultDialects) so users can add dialects
// without Go changes. An op whose name no dialect declares is unregistered: it loads, prints and rewrites like any
// other, and analyses treat it conservatively (it may mutate and alias its operands and has side effects).
//
// Tensor types share one representation, TensorType, under several spellings: builtin.tensor (what real programs
// use; mutable and possibly aliased), its older spelling pd_op.tensor, and pd_op.v_tensor, the value-tensor type of
// seed 000 §2.5 (never mutated, never aliased), between which pd_op.to_vtensor and pd_op.to_tensor copy.
//
// # Changing programs
//
// Readers and passes create ops with a Builder at an insertion point. Every change to an existing program goes
// through a Rewriter — replace uses, erase, set operands and attributes, retype, move — which tells its Listener,
// so the rewrite driver's worklist, tracing and verify-each see every change. Use lists are intrusive (O(1) add and
// remove), blocks are linked lists with order numbers (Op.IsBefore is amortized O(1)), and walks (Program.Walk,
// WalkBlock, WalkPost) tolerate erasing the op they just yielded.
//
// # Memory
//
// A program has millions of ops and the garbage collector scans them all, so the records are small: an Op is 104
// bytes with its first result (a result finds its op by its place in the op's record; further results and regions
// hang off one pointer, their count with them), a Use 32, a Value 24 (its type is one word: a pointer to the
// interned type's head). They come in chunks from the program's Allocator (Program.Allocator): readers build with
// it (Allocator.Append appends an op to a block without a Builder) and the rewrite driver creates with it. The
// driver also has it recycle the ops it erases (Allocator.TrackErased, Reuse), so that a rewrite run works in the
// memory of what it erased; an erased op stays recognisable (Erased) until then. Pages are the system's size: the
// allocator asks for no transparent huge pages (they made reading slower on virtual machines that give freed
// memory back to their host; see touchPages). Program.OpIDs numbers the allocator's ops densely, for tables
// indexed by op. String attributes, one per parameter name in real programs, are interned in a table of pointers
// with their bytes in an arena (Context.Str, Context.StrBytes). Attribute names are interned the same way, in a
// table of their own (Context.AttrName): the readers, the schemas and Rewriter.SetAttr store the Context's copy of
// each name, so that a lookup with that copy (the interpreted matcher's programs, the Applier's attribute layouts)
// finds its attribute by the string's data pointer, which runtime.memequal compares before any byte. Op.Attr
// still compares strings, so any name finds its attribute.
//
// # Checking
//
// Verify is the sanity checker: dominance of definitions over uses across nested regions, use-list consistency,
// operand/result/region counts and attribute kinds against schemas, and the terminators of if and while bodies. Its
// diagnostics name ops by their printed value ids and carry the source position of programs read from files.
//
// The text and JSON formats live in the subpackages pirtext and pirjson, GraphNet's graph folders in graphnet, and
// pirfile holds them all as values found by name, extension or content.
package ir
