#include "reference/compare/golden_perturbations.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <utility>

#include "reference/graph/hex_float.h"

namespace tdc::compare::testing {
namespace {

using graph::Json;
using Pointer = Json::json_pointer;

// A place in the document: its JSON pointer, its path as the comparator writes it
// (SCHEMA.md §10), and the schema fields on the way (for --mask).
struct Loc {
  Pointer ptr;
  std::string path;
  std::vector<std::string> fields;

  Loc Field(const std::string& name) const {
    Loc loc{ptr / name, path.empty() ? name : path + "." + name, fields};
    loc.fields.push_back(name);
    return loc;
  }
  Loc Kind(const std::string& kind) const { return {ptr / kind, path + "." + kind, fields}; }
  Loc Key(const std::string& key) const {
    return {ptr / key, path + "[" + Json(key).dump() + "]", fields};
  }
  Loc Index(size_t i) const { return {ptr / i, path + "[" + std::to_string(i) + "]", fields}; }
};

struct Tol {
  double rtol;
  double atol;
};

// Independent of compare/tolerance.cc: SCHEMA.md §10's table.
std::map<std::string, Tol> DefaultTolerances() {
  return {{"float32", {1.3e-6, 1e-5}},
          {"float64", {1e-7, 1e-7}},
          {"float16", {1e-3, 1e-5}},
          {"bfloat16", {1.6e-2, 1e-5}}};
}

std::string Appended(const Json& text) { return text.get<std::string>() + "~"; }

const Json kNone = {{"none", nullptr}};

class Walker {
 public:
  explicit Walker(const Json& document) : tolerances_(DefaultTolerances()) {
    for (const auto& [dtype, t] : document["meta"]["header"]["tolerance"].items()) {
      tolerances_[dtype] = Tol{t["rtol"].get<double>(), t["atol"].get<double>()};
    }
  }

  std::vector<Perturbation> Take() { return std::move(out_); }

  void Golden(const Json& doc) {
    Loc root;
    Outcome(doc["eager"], root.Field("eager"));
    Loc compiled = root.Field("compiled");
    for (const auto& [profile, outcome] : doc["compiled"].items()) {
      Compiled(outcome, compiled.Key(profile));
    }
    if (!doc["compiled"].empty()) {
      std::string first = doc["compiled"].begin().key();
      Emit("compiled.profile_missing", compiled.Key(first), Erase(compiled.ptr, first));
      Set("compiled.profile_extra", compiled.Key("torch-perturbed"), doc["compiled"][first]);
    }
    Loc meta = root.Field("meta");
    Equal("meta.ignored", meta.Field("torch_version"), Appended(doc["meta"]["torch_version"]));
    Equal("meta.ignored", meta.Field("fixture_sha256"), std::string(64, 'f'));
  }

 private:
  // The perturbation that sets `at` to `value` and must be reported at `at`.
  void Set(const std::string& kind, const Loc& at, Json value) {
    Emit(kind, at, [ptr = at.ptr, value](Json& doc) { doc[ptr] = value; });
  }
  // One that sets `at` to `value` and must compare equal.
  void Equal(const std::string& kind, const Loc& at, Json value) {
    out_.push_back({kind, "", {}, [ptr = at.ptr, value](Json& doc) { doc[ptr] = value; }});
  }
  void Emit(const std::string& kind, const Loc& reported, std::function<void(Json&)> apply) {
    std::vector<std::string> masks = reported.fields;
    if (std::find_if(masks.begin(), masks.end(), [](const std::string& f) {
          return f == "aten_graph" || f == "aten_error" || f == "aot_eager";
        }) != masks.end()) {
      masks.push_back("aten");
    }
    out_.push_back({kind, reported.path, std::move(masks), std::move(apply)});
  }
  static std::function<void(Json&)> Erase(const Pointer& parent, const std::string& key) {
    return [parent, key](Json& doc) { doc[parent].erase(key); };
  }
  // Shortens a non-empty list by its last element, or gives an empty one `extra`.
  void Length(const std::string& kind, const Loc& at, const Json& list, Json extra) {
    Emit(kind, at, [ptr = at.ptr, extra, n = list.size()](Json& doc) {
      if (n > 0) {
        doc[ptr].erase(n - 1);
      } else {
        doc[ptr].push_back(extra);
      }
    });
  }
  // A map without its first key, and with one key more.
  void MissingAndExtra(const std::string& kind, const Loc& at, const Json& map,
                       const std::string& extra_key, Json extra_value) {
    if (!map.empty()) {
      const std::string first = map.begin().key();
      Emit(kind + ".missing", at.Key(first), Erase(at.ptr, first));
    }
    Set(kind + ".extra", at.Key(extra_key), std::move(extra_value));
  }

  void String(const std::string& kind, const Json& json, const Loc& at) {
    Set(kind, at, Appended(json));
  }
  // One apart, and never past int64 (a slice's open end is recorded as 2**63 - 1).
  void Int(const std::string& kind, const Json& json, const Loc& at) {
    const int64_t v = json.get<int64_t>();
    Set(kind, at, v == std::numeric_limits<int64_t>::max() ? v - 1 : v + 1);
  }
  void Bool(const std::string& kind, const Json& json, const Loc& at) {
    Set(kind, at, !json.get<bool>());
  }

  // A float written as float.hex(), with the tolerance of `dtype`.
  void Float(const std::string& kind, const Json& json, const Loc& at, const std::string& dtype) {
    double v = graph::ParseHexFloat(json.get<std::string>()).value();
    if (std::isnan(v)) {
      Set(kind + ".nan_vs_number", at, graph::FormatHexFloat(1.0));
      return;
    }
    if (std::isinf(v)) {
      Set(kind + ".infinity_sign", at, graph::FormatHexFloat(-v));
      return;
    }
    Tol t = tolerances_.at(dtype);
    double tolerance = t.atol + t.rtol * std::fabs(v);
    Set(kind + ".beyond_tolerance", at, graph::FormatHexFloat(v + 4 * tolerance));
    Equal(kind + ".within_tolerance", at, graph::FormatHexFloat(v + tolerance / 2));
  }

  void Exception(const std::string& kind, const Json& json, const Loc& at) {
    if (json.is_null()) {
      Set(kind + ".null_vs_set", at, {{"type", "RuntimeError"}, {"message", "perturbed"}});
      return;
    }
    Set(kind + ".set_vs_null", at, nullptr);
    String(kind + ".type", json["type"], at.Field("type"));
    String(kind + ".message", json["message"], at.Field("message"));
  }

  void Tensor(const Json& json, const Loc& at) {
    const std::string dtype = json["dtype"].get<std::string>();
    bool floating = tolerances_.count(dtype) > 0;
    if (dtype != "bool") {
      std::string other = floating ? (dtype == "float32" ? "float64" : "float32")
                                   : (dtype == "int64" ? "int32" : "int64");
      Set("tensor.dtype", at.Field("dtype"), other);
    }
    Emit("tensor.shape", at.Field("shape"), [ptr = at.ptr](Json& doc) {
      doc[ptr / "shape"].push_back(1);
      doc[ptr / "strides"].push_back(1);
    });
    if (!json["strides"].empty()) {  // Strides compare as a whole: one path for the list.
      Emit("tensor.strides", at.Field("strides"),
           [ptr = at.ptr / "strides" / 0,
            stride = json["strides"][0].get<int64_t>() + 1](Json& doc) { doc[ptr] = stride; });
    }
    Bool("tensor.requires_grad", json["requires_grad"], at.Field("requires_grad"));
    const Json& values = json["values"];
    Loc values_at = at.Field("values");
    for (size_t i = 0; i < values.size(); ++i) {
      if (i >= 8 && i + 1 != values.size()) continue;  // The first 8 and the last.
      if (floating) {
        Float("tensor.element", values[i], values_at.Index(i), dtype);
      } else if (dtype == "bool") {
        Bool("tensor.element.bool", values[i], values_at.Index(i));
      } else {
        Int("tensor.element.int", values[i], values_at.Index(i));
      }
    }
  }

  void Value(const Json& json, const Loc& at, bool in_args) {
    const std::string kind = json.begin().key();
    const Json& body = json.begin().value();
    Loc in = at.Kind(kind);
    const std::string prefix = in_args ? "arg." : "value.";
    // A different kind: reported once, on the value itself.
    if (kind == "ref") {
      Set("arg.ref_vs_const", at, {{"int", body}});
    } else if (kind == "int") {
      Set(prefix + "int_vs_float", at,
          {{"float", graph::FormatHexFloat(static_cast<double>(body.get<int64_t>()))}});
    } else {
      Set(prefix + "kind", at, kind == "none" ? Json{{"ellipsis", nullptr}} : kNone);
    }
    if (kind == "tensor") {
      Tensor(body, in);
    } else if (kind == "int") {
      Int(prefix + "int", body, in);
    } else if (kind == "ref") {
      if (body.get<int64_t>() > 0) Set("arg.ref", in, body.get<int64_t>() - 1);
    } else if (kind == "float") {
      Float(prefix + "float", body, in, "float64");
    } else if (kind == "bool") {
      Bool(prefix + "bool", body, in);
    } else if (kind == "str" || kind == "device" || kind == "callable" || kind == "repr") {
      String(prefix + kind, body, in);
    } else if (kind == "tuple" || kind == "list" || kind == "slice") {
      for (size_t i = 0; i < body.size(); ++i) Value(body[i], in.Index(i), in_args);
      if (kind != "slice") Length(prefix + kind + ".length", in, body, {{"int", 0}});
    } else if (kind == "dict") {
      for (size_t i = 0; i < body.size(); ++i) {
        Value(body[i][0], in.Index(i).Index(0), in_args);
        Value(body[i][1], in.Index(i).Index(1), in_args);
      }
      Length(prefix + "dict.length", in, body, Json::array({{{"int", 99}}, {{"int", 0}}}));
    } else if (kind == "dtype") {
      Set(prefix + "dtype", in, body == "float32" ? "float64" : "float32");
    } else if (kind == "layout") {
      Set("arg.layout", in, body == "strided" ? "sparse_coo" : "strided");
    } else if (kind == "memory_format") {
      Set("arg.memory_format", in,
          body == "contiguous_format" ? "channels_last" : "contiguous_format");
    }
  }

  void Node(const Json& json, const Loc& at) {
    const std::string op = json["op"].get<std::string>();
    static const std::map<std::string, std::string> kSwappedOp = {{"call_function", "call_method"},
                                                                  {"call_method", "call_function"},
                                                                  {"get_attr", "call_module"},
                                                                  {"call_module", "get_attr"}};
    if (kSwappedOp.count(op)) Set("node.op", at.Field("op"), kSwappedOp.at(op));
    if (op == "placeholder") {
      String("placeholder.type", json["type"], at.Field("type"));
      Json shape = json["shape"].is_null() ? Json::array() : json["shape"];
      shape.push_back(1);
      Set("placeholder.shape", at.Field("shape"), shape);
      Set("placeholder.dtype", at.Field("dtype"),
          json["dtype"] == "float32" ? "float64" : "float32");
      Set("placeholder.requires_grad", at.Field("requires_grad"),
          json["requires_grad"].is_null() ? true : !json["requires_grad"].get<bool>());
      Set("placeholder.source", at.Field("source"),
          json["source"].is_null() ? "L['perturbed']" : Appended(json["source"]));
      return;
    }
    if (op != "output") String("node.target", json["target"], at.Field("target"));
    Loc args = at.Field("args");
    for (size_t i = 0; i < json["args"].size(); ++i) Value(json["args"][i], args.Index(i), true);
    Length("node.args.length", args, json["args"], {{"int", 0}});
    if (op == "output") return;
    Loc kwargs = at.Field("kwargs");
    for (const auto& [name, arg] : json["kwargs"].items()) Value(arg, kwargs.Key(name), true);
    MissingAndExtra("node.kwargs", kwargs, json["kwargs"], "perturbed", {{"int", 0}});
  }

  void Graph(const Json& json, const Loc& at) {
    Loc nodes = at.Field("nodes");
    for (size_t i = 0; i < json["nodes"].size(); ++i) Node(json["nodes"][i], nodes.Index(i));
    Length("graph.nodes.length", nodes, json["nodes"], {{"op", "output"}, {"args", Json::array()}});
  }

  void Invocation(const Json& json, const Loc& at) {
    Loc trigger = at.Field("trigger");
    String("trigger.code", json["trigger"]["code"], trigger.Field("code"));
    Bool("trigger.resume", json["trigger"]["resume"], trigger.Field("resume"));
    Int("trigger.line", json["trigger"]["line"], trigger.Field("line"));
    Set("invocation.compile_id", at.Field("compile_id"),
        json["compile_id"] == "99/99" ? "98/98" : "99/99");
    Bool("invocation.recompile", json["recompile"], at.Field("recompile"));
    Graph(json["dynamo_graph"], at.Field("dynamo_graph"));
    Loc aten = at.Field("aten_graph");
    if (json["aten_graph"].is_null()) {
      Set("aten_graph.null_vs_set", aten, json["dynamo_graph"]);
    } else {
      Set("aten_graph.set_vs_null", aten, nullptr);
      Graph(json["aten_graph"], aten);
    }
    Exception("aten_error", json["aten_error"], at.Field("aten_error"));
  }

  void GraphBreak(const Json& json, const Loc& at) {
    Loc location = at.Field("location");
    if (json["location"].is_null()) {
      Set("graph_break.location.null_vs_set", location, {{"file", "x.py"}, {"line", 1}});
    } else {
      Set("graph_break.location.set_vs_null", location, nullptr);
      String("graph_break.location.file", json["location"]["file"], location.Field("file"));
      Int("graph_break.location.line", json["location"]["line"], location.Field("line"));
    }
    for (const char* field : {"reason", "gb_type", "explanation", "context"}) {
      String(std::string("graph_break.") + field, json[field], at.Field(field));
    }
    Loc hints = at.Field("hints");
    for (size_t i = 0; i < json["hints"].size(); ++i) {
      String("graph_break.hints.element", json["hints"][i], hints.Index(i));
    }
    Length("graph_break.hints.length", hints, json["hints"], "perturbed");
    Loc stack = at.Field("user_stack");
    if (json["user_stack"].is_null()) {
      Set("graph_break.user_stack.null_vs_set", stack, Json::array());
      return;
    }
    Set("graph_break.user_stack.set_vs_null", stack, nullptr);
    for (size_t i = 0; i < json["user_stack"].size(); ++i) {
      const Json& frame = json["user_stack"][i];
      Loc frame_at = stack.Index(i);
      String("graph_break.user_stack.frame.file", frame["file"], frame_at.Field("file"));
      Int("graph_break.user_stack.frame.line", frame["line"], frame_at.Field("line"));
      String("graph_break.user_stack.frame.name", frame["name"], frame_at.Field("name"));
    }
    Length("graph_break.user_stack.length", stack, json["user_stack"],
           {{"file", "x.py"}, {"line", 1}, {"name", "f"}});
  }

  void Outcome(const Json& json, const Loc& at) {
    Loc outs = at.Field("outs");
    for (const auto& [name, value] : json["outs"].items()) Value(value, outs.Key(name), false);
    MissingAndExtra("outs", outs, json["outs"], "out_perturbed", {{"int", 7}});
    Exception("exception", json["exception"], at.Field("exception"));
  }

  void Compiled(const Json& json, const Loc& at) {
    Outcome(json, at);
    Loc invocations = at.Field("invocations");
    for (size_t i = 0; i < json["invocations"].size(); ++i) {
      Invocation(json["invocations"][i], invocations.Index(i));
    }
    Json minimal_invocation = {{"trigger", {{"code", "f"}, {"resume", false}, {"line", 1}}},
                               {"compile_id", "0/0"},
                               {"recompile", false},
                               {"dynamo_graph", {{"nodes", Json::array()}}},
                               {"aten_graph", nullptr},
                               {"aten_error", nullptr}};
    Length("invocations.count", invocations, json["invocations"], minimal_invocation);

    Loc counters = at.Field("counters");
    Int("counters.frame_count", json["counters"]["frame_count"], counters.Field("frame_count"));
    Int("counters.op_count", json["counters"]["op_count"], counters.Field("op_count"));
    Loc graph_break = counters.Field("graph_break");
    for (const auto& [key, count] : json["counters"]["graph_break"].items()) {
      Int("counters.graph_break.count", count, graph_break.Key(key));
    }
    MissingAndExtra("counters.graph_break", graph_break, json["counters"]["graph_break"],
                    "perturbed", 1);

    Loc breaks = at.Field("graph_breaks");
    for (size_t i = 0; i < json["graph_breaks"].size(); ++i) {
      GraphBreak(json["graph_breaks"][i], breaks.Index(i));
    }
    Json minimal_break = {{"location", nullptr},  {"reason", "r"},          {"gb_type", "g"},
                          {"explanation", "e"},   {"hints", Json::array()}, {"context", "c"},
                          {"user_stack", nullptr}};
    Length("graph_breaks.count", breaks, json["graph_breaks"], minimal_break);

    Loc aot_eager = at.Field("aot_eager");
    if (json["aot_eager"].is_object()) {
      Outcome(json["aot_eager"], aot_eager);
      Set("aot_eager.set_vs_null", aot_eager, nullptr);
    }
  }

  std::map<std::string, Tol> tolerances_;
  std::vector<Perturbation> out_;
};

}  // namespace

std::vector<Perturbation> EnumeratePerturbations(const Json& document) {
  Walker walker(document);
  walker.Golden(document);
  return walker.Take();
}

}  // namespace tdc::compare::testing
