// Package pirtext reads and writes Paddle PIR programs in their printed text form (shared/reference/pir-text-format.md).
//
//	p, warnings, err := pirtext.Parse(ctx, "model.pir", src, pirtext.ReadOptions{})
//	err = pirtext.Write(w, p, pirtext.WriteOptions{})
//
// # Writing
//
// Write and Print produce what Paddle's printer (paddle/pir/src/core/ir_printer.cc and the custom printers of
// pd_op.if, pd_op.while and cinn_op.group) prints: the program body in "{" … "}", one op per line indented by 4
// spaces per nesting level,
//
//	(%a, %b) = "name" (%x, %y) {k:v,k:v} : (T, T) -> T, T
//
// with ", " between values and types and "," inside {}, [] and vec[]; attribute keys sorted; "() = … -> " with a
// trailing space for ops without results; values numbered %0, %1, … in print order, an op's results before the ops
// of its regions, and block arguments %arg_0, %arg_1, … with one counter for the whole program (the numbering of
// ir.NumberValues). Floats are written with ir.FormatFloat (the shortest text that reads back to the same value,
// in C's %g layout: Paddle's own text for every value Paddle printed, lossless for the others) and strings with
// the escapes of ir.QuoteString. The custom forms are
//
//	(%5) = "pd_op.if" (%4) {attrs} -> T {
//	    …
//	} else {
//	    …
//	}
//	(%4) = "pd_op.while"(cond=%3, inputs=%0) {
//	^%arg_0
//	    …
//	}
//	(%1) = cinn_op.group () -> T {
//	    …
//	}
//
// Attributes are tagged as Paddle printed them until 2024 ((Int32)1, (Float)1e-05, (pd_op.DataType)float32,
// (pd_op.Place)Place(cpu), (pd_op.IntArray)[1,2], …), or untagged (WriteOptions.Untagged) as newer Paddle prints
// them (1, 1e-05, float32, Place(cpu), [1,2]).
//
// Where Paddle's printer loses information, this printer adds what is needed to read the program back exactly, in
// a syntax Paddle's printer never produces, so that Paddle-shaped programs print exactly as Paddle prints them:
//
//   - pd_op.while: "{attrs}" after the ")" when the op has attributes (Paddle drops them), and "-> T, …" before the
//     body when its result types are not its inputs' types; "^%arg_0 : T" when the body's argument types are not
//     the inputs' types.
//   - cinn_op.group: "{attrs}" after the operands when the op has attributes (Paddle drops group_info).
//   - Block arguments of other regions (which Paddle's generic printer omits) are printed "^%arg_0, %arg_1 : T, T"
//     on the first line of their block.
//   - Kinds that Paddle prints without a tag or not at all keep ir's tagged spelling: (TensorName)"x",
//     (pd_op.Scalar)float32:(Float)1, (Complex64)[re,im], (Pointer)0x…, and (Type)T for type attributes that would
//     otherwise read back as something else (the scalar types index and pstring, which are also DataType spellings,
//     and dialect types without parameters such as cf.stack).
//   - Attribute names that are not identifiers, and op names, are quoted with ir.QuoteString's escapes (Paddle
//     escapes only the double quote).
//
// Like Paddle's printer, this one never prints the attributes op_callstack and sym_shape_str. It differs in two
// details: a generic op with regions prints its blocks after its line without the empty line Paddle's printer
// leaves after each, and nothing like FLAGS_disable_logging_op_attr_list hides other attributes.
//
// # Reading
//
// Parse reads a superset of what Paddle printed from 2023-08 on (era B) and of the newer untagged syntax (era C):
//
//   - both forms of pd_op.if (`(%5) = "pd_op.if" (%4) {…} -> T {` and the older unquoted `pd_op.if (%3) {…} -> T`
//     with "{" on the next line), pd_op.while with or without a space before "(cond=", cinn_op.group, and generic ops
//     followed by "{…}" region blocks;
//   - "^%a, %b" and "^kw:" block arguments, with or without the "{attrs}" newer printers write after each (those
//     attributes are read and dropped: ir blocks have no argument attributes; keyword arguments are read as plain
//     arguments, so their names become %arg_N when printed);
//   - value names %N (with gaps: names are only keys), %arg_N, %kwarg_x and any other %name;
//   - " [id:N]" after an op name (ignored), unquoted op names, <<NULL VALUE>> operands;
//   - every type of the format: builtin.tensor, pd_op.tensor, tensor and pd_op.v_tensor (ir.TensorType with that
//     Spelling), the kernel dialect's gpu_tensor, cpu_tensor, undefined_tensor, … (likewise), vec[…],
//     pd_op.selectedrows<…>, pd_op.tensor_array<…>, <<NULL TYPE>>, and other dialects' types kept as ir.OpaqueType;
//   - every tagged attribute and type attributes, <#AttrNull>, and dialect attributes such as
//     kernel_key:<backend:GPU|…> and kernel_info:(0x7f…), kept as ir.OpaqueAttr with their exact text;
//   - untagged attributes (numbers, lists, data type and layout spellings, Place(…)), whose kind comes from the
//     op's schema (Context.Schema, AttrSpec.Type, Context.Coerce) or is guessed when the op is unregistered or does
//     not declare the attribute (Context.Guess, refined: DataLayout spellings read as DataLayout). A literal that
//     does not fit its declared kind is read with a guessed kind and a warning. Values whose spelling says their
//     kind are read as written whatever the schema says (ir.Verify reports a mismatch): quoted strings are str,
//     true/false bool, tagged values their tag's kind, and scalar type spellings (f32, i64, b, …) type attributes;
//   - // comments outside strings, CR LF line ends, any indentation, any attribute order, and files without the
//     enclosing braces.
//
// A signature operand type that contradicts the operand's own type is a warning, positioned at the type: the
// operand's type wins, as in Paddle's parser. Everything else that does not fit is an *Error naming the file, line
// and column and what was expected there: values used before their definition, never defined, defined twice or
// outside the region that defines them, malformed types and attributes, and the 2023 "new IR" syntax (pd. dialect,
// unquoted strings), whose first unquoted string stops the reader. Parse never panics (a bug would surface as an
// *Error with Internal set).
//
// # What untagged text loses
//
// Tagged text reads back to an equal program (ir.Equal), whatever the schemas say, with one exception: an empty
// list is read like an untagged one, so an empty array attribute under a name whose schema declares an IntArray
// reads back as an empty IntArray. Untagged text reads back equal for attributes whose op schema declares their
// kind, except that a TensorName reads back as str (Paddle prints it as a plain string), a Scalar loses its data
// type and a value of another kind than declared takes the declared kind. Without a schema the kind is guessed:
// f32 reads back as f64; i64 and index values in the i32 range as i32; f64 values that print as integers as i32
// or i64; IntArray as an array of integers; TensorName as str; Scalar as its value (see roundtrip_test.go's
// untaggedLossy). The printed text itself is stable: printing what was read gives the same text.
//
// # Limits of the round trip
//
// Paddle's text has no syntax for a region without blocks or with several blocks: a generic op's region prints as
// its blocks, each read back as a region of its own. The attributes op_callstack and sym_shape_str are not
// printed. A Place on the CPU or of a pinned allocation prints without a device id, as Paddle prints it, and the
// reader drops a device id written there. Opaque types and attributes print their text verbatim and read back only
// if that text is what the reader keeps (an identifier, optionally with a bracketed <…> group, or a parenthesized
// pointer); likewise a pointer's text, a DataLayout spelling and names are printed as given.
//
// # Performance
//
// The reader scans bytes directly (no token stream, no regular expressions). Lines in the layout printers write
// (one op, the exact spacing, numbered values, operand types that are the operands' own, no regions) take a fast
// path (parse_fast.go) that compares bytes instead of reading tokens: the op name first with the kind that
// followed the previous line's kind last time, the rest of a line after its operands (its attribute map and
// signature) with the last line of the same op kind, and when they differ, the attribute map with the last map of
// the kind, which may differ in one string (each parameter's name), then the signature with the last line's (its
// types are then that line's), or else each type with the text it was last read from. Anything else, and anything
// the general reader would warn about or reject, goes to the general reader, which caches by source text, per
// parse, the types it reads and the attribute maps of each op name; tests compare the two on generated, golden,
// corpus and fuzzed inputs. Value names %N index a paged slice, ops are appended through ir.Allocator.Append, and
// ops with the same map share one attribute list.
//
// The printer appends to a buffer; Write hands it to its writer every 256 KiB, from a second goroutine once the
// output outgrows one buffer, so that formatting overlaps writing (print_flush.go). It prints the rest of a generic
// op's line after its operands through a cache of the last one of each op kind (same attribute list and types:
// same text), keeps the text of attribute lists it meets twice, and caches the text of types and attributes that
// need formatting; results are numbered through a table indexed by the ops' ir.OpIDs numbers.
package pirtext
