package paddle

import (
	"fmt"
	"sort"
	"strings"

	"github.com/pirdrr/drr/ir"
)

// The helper functions the generated lambdas call, each written only into files that call it (an unused function
// of the anonymous namespace is a -Wunused-function error): the builtins of the constraint language that Paddle
// has no function for.

// helperIncludes records the standard headers the helpers the classes call need.
func (g *gen) helperIncludes() {
	if g.helpers["IsConstant"] { // the helpers it calls
		g.helpers["IsParameter"] = true
		g.helpers["MayBeWritten"] = true
	}
	need := map[string][]string{"Contains": {"algorithm", "vector"}, "At": {"vector"}, "Dim": {"limits", "vector"},
		"Numel": {"vector"}, "MayBeWritten": {"algorithm", "unordered_set", "vector"},
		"IsConstant": {"unordered_map", "unordered_set", "algorithm", "vector"}}
	for h, incs := range need {
		if g.helpers[h] {
			for _, inc := range incs {
				g.includes[inc] = true
			}
		}
	}
}

// writeHelpers prints the helpers the classes call, in a fixed order.
func (g *gen) writeHelpers(b *strings.Builder) {
	if g.helpers["Contains"] {
		g.includes["algorithm"] = true
		g.includes["vector"] = true
		b.WriteString(`// Contains reports whether x is an element of list.
template <typename T>
bool Contains(const std::vector<T> &list, const T &x) {
  return std::find(list.begin(), list.end(), x) != list.end();
}

`)
	}
	if g.helpers["At"] {
		g.includes["vector"] = true
		b.WriteString(`// At returns element i of list, counting from the end when i is negative, or T() when there is none.
template <typename T>
T At(const std::vector<T> &list, int64_t i) {
  const int64_t n = static_cast<int64_t>(list.size());
  if (i < 0) i += n;
  return i >= 0 && i < n ? list[i] : T();
}

`)
	}
	if g.helpers["Dim"] {
		g.includes["limits"] = true
		b.WriteString(`// Dim returns dimension i of value's shape (-1 when it is dynamic), counting from the end when i is negative,
// or the lowest int64_t when the value has no such dimension.
int64_t Dim(const pir::Value &value, int64_t i) {
  const std::vector<int64_t> shape = pir::GetShapeFromValue(value);
  const int64_t rank = static_cast<int64_t>(shape.size());
  if (i < 0) i += rank;
  if (i < 0 || i >= rank) return std::numeric_limits<int64_t>::min();
  return shape[i];
}

`)
	}
	if g.helpers["Numel"] {
		b.WriteString(`// Numel returns the number of elements of value, or -1 when a dimension is dynamic.
int64_t Numel(const pir::Value &value) {
  int64_t n = 1;
  for (int64_t d : pir::GetShapeFromValue(value)) {
    if (d < 0) return -1;
    n *= d;
  }
  return n;
}

`)
	}
	if g.helpers["MayBeWritten"] {
		g.includes["unordered_set"] = true
		g.includes["vector"] = true
		writers := ""
		if w := g.writerOps(); len(w) > 0 {
			writers = "  static const std::unordered_set<std::string> kWriters = {\n" + g.nameList(w) + "};\n"
		}
		fmt.Fprintf(b, `// MayBeWritten reports whether an op may write value's buffer (drrc's mutated): an inplace op (Paddle names
// them with a trailing _%s) or an op outside pd_op and builtin reads it or a value sharing its buffer:
// one the view ops of drrc's catalog make of it, or one it is a view of.
bool MayBeWritten(const pir::Value &value) {
  static const std::unordered_set<std::string> kViews = {
%s};
%s  std::vector<pir::Value> todo = {value};
  std::vector<pir::Value> seen;
  while (!todo.empty()) {
    const pir::Value v = todo.back();
    todo.pop_back();
    if (!v || std::find(seen.begin(), seen.end(), v) != seen.end()) continue;
    seen.push_back(v);
    if (pir::Operation *def = v.defining_op()) {
      if (kViews.count(def->name()) > 0) {
        for (uint32_t i = 0; i < def->num_operands(); ++i) {
          todo.push_back(def->operand_source(i));
        }
      }
    }
    for (auto use = v.use_begin(); use != v.use_end(); ++use) {
      const std::string name = use->owner()->name();
      if (name.back() == '_'%s) return true;
      if (name.rfind("pd_op.", 0) != 0 && name.rfind("builtin.", 0) != 0) {
        return true;
      }
      if (kViews.count(name) > 0) {
        for (uint32_t i = 0; i < use->owner()->num_results(); ++i) {
          todo.push_back(use->owner()->result(i));
        }
      }
    }
  }
  return false;
}

`, map[bool]string{true: ", and kWriters", false: ""}[writers != ""], g.nameList(g.viewOps()), writers,
			map[bool]string{true: " || kWriters.count(name) > 0", false: ""}[writers != ""])
		g.includes["algorithm"] = true
	}
	if g.helpers["IsParameter"] {
		b.WriteString(`// IsParameter reports whether value is read from a parameter (drrc's is_param).
bool IsParameter(const pir::Value &value) {
  const pir::Operation *def = value.defining_op();
  return def != nullptr &&
         (def->name() == "builtin.parameter" || def->name() == "builtin.get_parameter");
}

`)
	}
	if g.helpers["IsConstant"] {
		fmt.Fprintf(b, `// IsConstant reports whether value is computed from parameters no op writes and from constants by ops without
// side effects (drrc's constant): its producers, back to parameters and ops without operands, are none of the ops
// that write or may have side effects (an inplace op, named with a trailing _, one of kImpure, an op outside
// pd_op and builtin) and have no regions.
bool IsConstant(const pir::Value &value,
                std::unordered_map<pir::Value, bool> *memo = nullptr) {
  static const std::unordered_set<std::string> kImpure = {
%s};
  std::unordered_map<pir::Value, bool> own;
  if (memo == nullptr) memo = &own;
  const auto found = memo->find(value);
  if (found != memo->end()) return found->second;
  (*memo)[value] = false;
  pir::Operation *def = value.defining_op();
  bool constant = false;
  if (def == nullptr) {
    constant = false;
  } else if (IsParameter(value)) {
    constant = !MayBeWritten(value);
  } else {
    const std::string name = def->name();
    constant = name.back() != '_' && kImpure.count(name) == 0 &&
               (name.rfind("pd_op.", 0) == 0 || name.rfind("builtin.", 0) == 0) &&
               def->num_regions() == 0 && !MayBeWritten(value);
    for (uint32_t i = 0; constant && i < def->num_operands(); ++i) {
      const pir::Value operand = def->operand_source(i);
      constant = !operand || IsConstant(operand, memo);
    }
  }
  (*memo)[value] = constant;
  return constant;
}

`, g.nameList(g.impureOps()))
	}
}

// viewOps are the ops of the catalog whose results share an operand's buffer.
func (g *gen) viewOps() []string {
	var out []string
	for _, s := range g.ctx.Schemas() {
		if len(s.View) > 0 {
			out = append(out, s.Name)
		}
	}
	sort.Strings(out)
	return out
}

// writerOps are the ops of the catalog that write an operand's buffer and whose name has no trailing _.
func (g *gen) writerOps() []string {
	var out []string
	for _, s := range g.ctx.Schemas() {
		if len(s.Inplace) > 0 && !strings.HasSuffix(s.Name, "_") {
			out = append(out, s.Name)
		}
	}
	sort.Strings(out)
	return out
}

// nameList prints names as the lines of a C++ initializer list, several to a line.
func (g *gen) nameList(names []string) string {
	var lines []string
	line := "     "
	for i, n := range names {
		item := fmt.Sprintf(" %q", n)
		if i < len(names)-1 {
			item += ","
		}
		if len(line)+len(item) > 80 {
			lines = append(lines, line)
			line = "     "
		}
		line += item
	}
	lines = append(lines, line)
	return strings.Join(lines, "\n")
}

// impureOps are the ops of the catalog drrc's constant does not look through, besides the inplace ones (named with
// a trailing _): those with side effects, regions, or results that alias an operand without being views.
func (g *gen) impureOps() []string {
	var out []string
	for _, s := range g.ctx.Schemas() {
		if strings.HasSuffix(s.Name, "_") {
			continue
		}
		if s.Has(ir.SideEffects) || s.Regions > 0 || !s.Has(ir.ValueSemantics) && !s.Has(ir.ViewLike) {
			out = append(out, s.Name)
		}
	}
	sort.Strings(out)
	return out
}
