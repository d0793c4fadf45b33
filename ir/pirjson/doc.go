// Package pirjson reads and writes Paddle's PIR JSON model format, the inference.json that Paddle 3.x writes with
// paddle.jit.save and save_inference_model (paddle/fluid/pir/serialize_deserialize; the format is described in
// shared/reference/pir-json-format.md).
//
//	p, err := pirjson.Read(ctx, "inference.json", src, pirjson.ReadOptions{})
//	out, err := pirjson.Marshal(p, pirjson.WriteOptions{})   // or pirjson.Write(w, p, opts)
//
// Files Paddle wrote re-write byte for byte: the writer reproduces nlohmann::json's layout (compact, keys sorted
// bytewise, its float and string formatting), Paddle's numbering and its order of attributes.
//
// # Mapping to the IR
//
// Everything a file says lives in the IR (op attributes, types, Program fields), so that converting JSON to PIR
// text and back loses nothing:
//
//   - base_code: version and trainable become Program.Version and Program.Trainable; magic must be "pir".
//   - The program's one region and block is the program body; op regions and blocks nest as in the file. Block
//     arguments (negative ids) are Block arguments. Keyword arguments ("kwargs", each with a "key") are appended
//     to the block's arguments, and their keys are kept in the attribute pirjson_kwargs of the op owning the
//     region (the module op for the program body): one array per block, in region and block order, holding the
//     keys of the block's trailing keyword arguments. The writer turns the attribute back into "kwargs" when it
//     fits the blocks. (Paddle's own writer stores a copy of "args" under "kwargs"; keyless entries that repeat
//     an argument are skipped on reading.)
//   - Op names: "1.conv2d" is pd_op.conv2d (dialect ids: builtin 0, pd_op 1, cf 2, custom_op 3, pd_dist 4);
//     names of other dialects are written in full and pass through; an unknown numeric dialect id is an error.
//   - "A" and "OA" become the op's attributes, in that order: the file's "A" order is kept, and "OA" holds
//     persistable and stop_gradient, the attributes PIR text prints among the others.
//   - The compressed parameter op "p" is builtin.parameter with the attributes is_distributed, is_parameter,
//     need_clip (one-element bool arrays from A[0:3]), parameter_name (A[3]), the "DA" and "QA" attributes
//     (op_dist_attr, op_role, struct_name), and persistable, stop_gradient, trainable (from OA), as its PIR text
//     form shows them. Real files have "DA":[] and "QA":[]; when a file leaves them out (the design doc's
//     example), the op gets the attribute pirjson_omit = ["DA","QA"] (or the one left out), so it re-writes as
//     read, also after a trip through PIR text. On writing, a parameter op whose attributes fit "p" becomes "p"
//     again, with Paddle's defaults for absent flags (0,1,0 and 1,1,1); one that does not fit (other attributes,
//     operands, flags that are not one-element bool arrays) is written as the ordinary op "0.parameter", which
//     loses nothing.
//   - Types: the scalar types (t_f32, t_ui8 = u8, t_bool, t_f8e4m3fn, t_undefined, …) are ir.ScalarType;
//     "0.t_dtensor" [dtype, dims, layout, lod, offset] is ir.TensorType spelled ir.DenseTensor, with its layout,
//     LoD and offset; "0.t_vec" is ir.VectorType; "1.t_dense_tensor_array" and "1.t_selected_rows" are
//     ir.TensorArrayType and ir.SelectedRowsType; value tensors (ir.ValueTensor, this engine's extension) are
//     written "1.t_vtensor" with the dense tensor payload; the cf types "2.t_stack", "2.t_inlet", "2.t_outlet" are
//     ir.OpaqueType cf.stack, cf.inlet, cf.outlet (their PIR text); the sparse and dist tensor types are
//     ir.OpaqueType holding their JSON in the writer's layout, written back as is; {"#":"NULL"} is ir.NullType.
//     The older spellings pd_op.tensor and tensor are written as "0.t_dtensor"; other tensor spellings (kernel
//     types) and opaque types of PIR text have no JSON form and are an error to write.
//   - Attributes: every encoding of serialize_utils.h, the kind taken from the id and never from the JSON token:
//     a_bool, a_i32, a_i64, a_index, a_f32 (kept as float32, written widened to double as Paddle does), a_f64,
//     "VD" "NaN"/"INF"/"-INF" for non-finite floats ("NAN", which Paddle's reader compares with, is read too),
//     a_str, a_tensorname, a_array, a_type, a_c64/a_c128 [re, im], a_pointer (our extension, "D" the pointer
//     text; Paddle cannot write pointers), "1.a_intarray", "1.a_dtype", "1.a_place" [allocation type, device id,
//     custom type], "1.a_layout", "1.a_scalar" ["dtype", value] (["dtype", re, im] for complex; NaN and
//     infinities are null as nlohmann writes them), the dist attributes ("4.a_process_mesh", "4.a_tensor_dist",
//     "4.a_op_dist", "4.a_placements") as ir.OpaqueAttr holding their JSON, and {"#":"NULL"}.
//   - Positions: each op's Loc is where its object starts (line 1, column = byte offset + 1 on one-line files);
//     Program.File is the file name, and Program.Params is collected from the parameter ops.
//
// # Writing
//
// Value ids are renumbered: results from 1 in write order, an op's results before the ops of its regions; block
// arguments −1, −2, … in write order; 0 for absent operands. Regions and blocks are named region_N and block_N
// from global counters in write order, and every block has "args" (empty if it has none). "OA" is written, with
// persistable first, only when Program.Trainable. Like Paddle's writer, Marshal drops cf.stack_create with the
// tuple_push and tuple_pop that are the only users of its inlet and outlet (WriteOptions.KeepStackOps keeps
// them); operands that read a dropped value are written as null, as Paddle does.
//
// The order of "A" follows Paddle: for a pd_op op with a schema, the schema (yaml) attributes in schema order,
// then op_dist_attr and op_role if set, then struct_name, then attributes the schema does not know; for other ops
// the attributes in their order; never stop_gradient, persistable or op_callstack. Ops read from JSON keep the
// file's order, ops read from PIR text or built by rewrites have their attributes sorted: the writer reorders an
// op only when its order is not already one Paddle could have written (schema attributes out of schema order, or
// before one of op_dist_attr, op_role, struct_name, or those out of order); see order.go. This is decided from the
// order alone, so a JSON file that went through PIR text comes back byte for byte when the catalogs (the op
// schemas) are loaded. Without them, ops of several attributes come back with their attributes sorted.
//
// # Versions
//
// "version" is Paddle's pir_version. Read accepts MinVersion…MaxVersion (1…4) and keeps attribute kinds as
// written. Marshal writes WriteOptions.Version, by default the version read, with the attribute kinds of that
// version on every op: it applies the op patches of Paddle's patch/2.yaml, 3.yaml and 4.yaml up to it, kept as
// data in version.go (for example *_interp.scale f32[] → f64[], leaky_relu.negative_slope f32 → f64, pool2d
// strides → i64[], repeat_interleave gains output_size, slogdet gains a result). A program read at version v has
// those kinds already; the ops a rewrite created get them (they were built with the catalog's version-1 kinds).
// Older versions cannot be written.
//
// # Errors
//
// Read reports bad input as an *Error naming the file, line and column, and the JSON path of the element (a JSON
// Pointer, RFC 6901), for example
//
//	model.json:1:4711: error: /program/regions/0/blocks/0/ops/17/I/2: value id 93 is not defined
//
// Error.Diagnostic().Render(src) adds the source line, cut around the column on one-line files, and a caret.
// Locate finds the JSON path of the op at a position, so that diagnostics about a program read from JSON (the
// verifier's) can name the op too.
// and never panics (it is fuzzed). It is strict: unknown or duplicate keys, ids that are not defined or defined
// twice, payloads of the wrong shape, out-of-range numbers and trailing data are errors. Marshal and Write
// return an error before producing any output when a program has no PIR JSON form.
//
// # Implementation
//
// The reader is a hand-written scanner over the input bytes, not encoding/json: it needs the offset of every
// value for its errors and builds the IR directly, and measured several times faster than decoding the same files
// into structs with encoding/json (see bench_test.go). Types and attributes are cached by their exact bytes, so
// each distinct one is decoded and interned once. The writer appends to chunked buffers and encodes each
// distinct (interned) type and attribute once.
package pirjson
