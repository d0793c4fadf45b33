// Package graphnet reads and writes GraphNet graphs: the computational graphs Paddle's GraphNet dataset captures
// from running models (PaddleNLP, PaddleX, PaddleScience), as ir.Programs.
//
// # The files
//
// A graph folder holds model.py, weight_meta.py, input_meta.py and graph_net.json; a sample folder may instead hold
// subgraph_0/ … subgraph_N/, each a graph (Graphs lists them). model.py defines class GraphModule whose forward
// takes the weights and inputs and runs one Paddle op per statement:
//
//	def forward(self, parameter_0, data_0):
//	    # pd_op.matmul: (2x4xf32) <- (2x3xf32, 3x4xf32)
//	    matmul_0 = paddle._C_ops.matmul(data_0, parameter_0, False, False)
//	    del data_0, parameter_0
//
//	    return matmul_0
//
// weight_meta.py and input_meta.py describe each weight and input in a class: name, original_name (the name in the
// model it was captured from, when recorded), shape, dtype, value statistics (min_val, max_val, mean, std: any may
// be missing) and, for small inputs, data.
//
// # Reading
//
// Decode (or Read, from a folder) parses the Python with a real lexer and recursive-descent parser for the subset
// these files use (indentation, comments with their positions, calls with keyword arguments, lists, tuples,
// dictionaries, lambdas, float("nan"), del, return), then builds the program:
//
//   - each forward parameter becomes a builtin.parameter op (a weight) or a pd_op.data op (an input), in forward's
//     order, with the attributes Paddle's exported inference programs give them. They keep GraphNet's names
//     (parameter_7, data_0): these are unique and always present, model.py refers to them, and Paddle only needs
//     names to be unique; the captured model's name is kept in ir.Variable.OriginalName. Program.Params and
//     Program.Feeds hold each tensor's metadata (ir.TensorStats, with the missing statistics marked, and the
//     data). A data op has the program's type, which the comments give and which may have dynamic (-1) dims; its
//     feed keeps the sample's concrete shape.
//   - each statement of forward but del and return is one op. The signature comment before it is the truth about
//     the op's name and its result and operand types (1x21x768xf32, xi64 for 0-d, -1 for dynamic dims, [T, T] for
//     vectors, None for absent optional values). The call's arguments follow the op yaml's argument order, which
//     the catalog records (ir.OpSchema.Args): arguments at operand positions are value names or None, the others
//     are attributes, converted strictly by the catalog's attribute kinds (every float is written float("…"), so
//     an int where the catalog has a float is an error). The statement forms are: name = paddle._C_ops.op(…);
//     a, b = (lambda x, f: f(x))(paddle._C_ops.op(…), lambda out: …) for ops with several results (optionally
//     padded with + (None,)); name = [1, 2] (pd_op.full_int_array); name = [a, b] (builtin.combine);
//     (a, b,) = x (builtin.split); name = x (pd_op.assign); name = x.detach() (pd_op.share_data_);
//     name = paddle.arange(s, e, step, dtype="float32"); one_hot's x % paddle.cast(n, x.dtype) guard; and
//     batch_norm_ called through paddle._C_ops.batch_norm. Every op is checked against the catalog (operand and
//     result counts, argument names, attribute kinds) while it is built.
//   - the values forward returns become the program's outputs, marked as Paddle's exporter marks them: a pd_op.fetch
//     op each, named fetch_name_0, fetch_name_1, … with col 0, 1, …, so that dead-code elimination keeps them.
//   - stop_gradient is computed as Paddle does for inference programs: true on results of ops whose operands are
//     all stop_gradient (constants), false downstream of weights and inputs.
//
// Samples that are not captures: some samples' model.py builds a model and calls it (forward(self, *args,
// **kwargs) running paddle.vision.models.squeezenet1_1), and their graph_net.json carries the program instead, as
// "protocol": "PIR" and "program_desc", the whole program as Paddle prints it. When forward takes *args or
// **kwargs and graph_net.json has a program_desc, the program is read from it with package pirtext; positions then
// name the file DIR/graph_net.json#program_desc, whose lines are the program text's. Paddle's print has no outputs:
// each sink (a result of an op none of whose results is used; inputs, parameters and constants aside) gets a
// pd_op.fetch, as a capture's returned values do. The classes of weight_meta.py and input_meta.py that describe a
// parameter or an input of the program give it its statistics and data; their other statements (the input_meta =
// {…} table) are skipped. A capture's model.py always wins over a program_desc.
//
// Places: paddle.core.CPUPlace() is Place(cpu); paddle.framework._current_expected_place(), the device the graph
// runs on, is the undefined place that Paddle's exporter also gives data ops.
//
// The program's File is the graph's model.py, which the ops' positions point into. A problem is an *Error with the
// file, line and column: "model.py:412:9: error: …"; nothing is returned then.
//
// # Writing
//
// Encode (or Write, into a folder) produces the files of a graph folder from a program: one statement per op in
// GraphNet's style (the signature comment, the lambda idiom, del after each value's last use, black's line
// breaking at 88 columns), from each op's schema argument order, so that the ops rewrites create (fused ops of
// the catalog) can be written too. Inputs keep their names when they are Python identifiers and otherwise become
// parameter_N and data_N with original_name recording the program's name; dynamic input dims are written None
// (which GraphNet's harness makes 1). The outputs are the program's pd_op.fetch and builtin.shadow_output ops, in
// col order. Programs GraphNet cannot express are refused with an error: control flow (ops with regions), ops not
// in the catalog, ops of other dialects than pd_op (builtin.combine and builtin.split aside), and programs without
// outputs. graph_hash.txt, GraphNet's hash of a graph, is not written.
//
// Reading what Encode wrote gives back an equal program: over the 810 captured graphs of the shared corpus, the
// written model.py reproduces the op sequence, signature comment for signature comment.
package graphnet
