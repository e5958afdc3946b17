#include <fmt/format.h>
#include <algorithm>

#include <fstream>
#include <nlohmann/json.hpp>

#include "softsim/core/errors.hpp"
#include "softsim/fem/shell_membrane.hpp"
#include "softsim/material/material.hpp"
#include "softsim/scene/json_reader.hpp"
#include "softsim/scene/round_generator_spec.hpp"
#include "softsim/scene/scene.hpp"
#include "softsim/scene/selection_reader.hpp"
#include "softsim/scene/volume_penalty_spec.hpp"
#include "softsim/solve/linear_solver.hpp"

namespace softsim {

namespace {

constexpr int kMaxSteps = 100000000;  // time.steps / time.end

// A dim-long vector read into a Vec3 (z = fill in 2D).
Vec3 read_vec(const JsonReader& r, const std::string& key, const Vec3& fallback, int dim, double fill = 0.0) {
  const VecX v = r.vector(key, fallback.head(dim), dim);
  Vec3 out = Vec3::Constant(fill);
  out.head(dim) = v;
  return out;
}

}  // namespace

SelectionSpec read_selection(const JsonReader& r, int dim) {
  SelectionSpec s;
  s.path = r.path();
  const bool has_box = r.has("box"), has_ids = r.has("ids");
  if (has_box == has_ids) r.fail_here("expected exactly one of \"box\" or \"ids\"");
  if (has_box) {
    const JsonReader box = r.child("box");
    if (box.array_size() != 2) box.fail_here("expected [[min...], [max...]]");
    Vec3 lo = Vec3::Constant(-HUGE_VAL), hi = Vec3::Constant(HUGE_VAL);
    for (int corner = 0; corner < 2; ++corner) {
      const auto& c = box.node()[corner];
      if (!c.is_array() || static_cast<int>(c.size()) != dim)
        box.fail_here(fmt::format("expected two arrays of {} numbers", dim));
      for (int d = 0; d < dim; ++d) {
        if (!c[d].is_number()) box.fail_here(fmt::format("expected two arrays of {} numbers", dim));
        (corner == 0 ? lo : hi)[d] = c[d].get<double>();
      }
    }
    if ((hi.head(dim) - lo.head(dim)).minCoeff() < 0) box.fail_here("min corner exceeds max corner");
    s.box = std::make_pair(lo, hi);
  } else {
    s.ids = r.int_list("ids");
  }
  return s;
}

namespace {

TransformSpec read_transform(const JsonReader& t, int dim) {
  TransformSpec tr;
  tr.translate = read_vec(t, "translate", Vec3::Zero(), dim);
  if (dim == 2) {
    tr.rotate_degrees.z() = t.number("rotate", 0.0);
  } else {
    tr.rotate_degrees = read_vec(t, "rotate", Vec3::Zero(), 3);
  }
  if (t.has("scale") && t.node().at("scale").is_number()) {
    tr.scale = Vec3::Constant(t.positive("scale", 1.0));
  } else {
    tr.scale = read_vec(t, "scale", Vec3::Ones(), dim, 1.0);
    if (tr.scale.minCoeff() <= 0) t.fail("scale", "expected positive scale factors");
  }
  t.finish();
  return tr;
}

MaterialSpec read_material(const JsonReader& r, const std::string& kind) {
  MaterialSpec m;
  std::vector<std::string> models = material_model_names();
  m.model = r.string("model", m.model, models);
  const bool has_lame = r.has("mu") || r.has("lambda");
  if (has_lame) {
    if (r.has("E") || r.has("nu")) r.fail_here("give either E and nu, or mu and lambda, not both");
    LameParameters lame;
    lame.mu = r.positive("mu", 1e4);
    lame.lambda = r.number("lambda", 0.0, 0.0);
    m.youngs_modulus = lame.youngs_modulus();
    m.poisson_ratio = lame.poisson_ratio();
  } else {
    m.youngs_modulus = r.positive("E", m.youngs_modulus);
    m.poisson_ratio = r.number("nu", m.poisson_ratio, -1.0, 0.4999, true);
  }
  m.density = r.positive("density", m.density);
  m.spring_stiffness = r.positive("stiffness", m.spring_stiffness);
  m.thickness = r.positive("thickness", m.thickness);
  if (r.has("bending_stiffness")) m.bending_stiffness = r.number("bending_stiffness", 0.0, 0.0);
  if (kind == "shell" && !ShellMembrane::supports(m.model))
    r.fail("model", "shells support \"stvk\" and \"neo_hookean\" membranes, got \"" + m.model + "\"");
  m.lumped_mass = r.string("mass", "lumped", {"lumped", "consistent"}) == "lumped";
  r.finish();
  return m;
}

BodySpec read_body(const JsonReader& r, int dim, std::size_t index) {
  BodySpec b;
  b.path = r.path();
  b.name = r.string("name", fmt::format("body{}", index));
  b.kind = r.string("kind", b.kind, dim == 3 ? std::vector<std::string>{"solid", "mass_spring", "shell"}
                                              : std::vector<std::string>{"solid", "mass_spring"});
  if (r.has("mesh") == r.has("generator")) r.fail_here("expected exactly one of \"mesh\" or \"generator\"");
  if (r.has("mesh")) b.mesh = r.string("mesh", "");
  if (r.has("generator")) {
    const JsonReader g = r.child("generator");
    GeneratorSpec gen;
    const std::vector<std::string> types =
        dim == 3 ? std::vector<std::string>{"box", "hollow_box", "sheet", "sphere", "hollow_sphere", "bowl"}
                 : std::vector<std::string>{"rectangle", "spring_grid"};
    if (!g.has("type")) g.fail("type", fmt::format("missing; expected one of {}", fmt::join(types, ", ")));
    gen.type = g.string("type", "", types);
    if (is_round_generator(gen.type)) {
      read_round_generator(g, gen);
    } else {
      gen.size = read_vec(g, "size", Vec3::Ones(), dim, 1.0);
      // A sheet lies in the x-z plane: its y size is ignored.
      const double smallest = gen.type == "sheet" ? std::min(gen.size.x(), gen.size.z()) : gen.size.head(dim).minCoeff();
      if (smallest <= 0) g.fail("size", "expected positive sizes");
      if (g.has("resolution")) {
        const auto& res = g.node().at("resolution");
        if (!res.is_array() || static_cast<int>(res.size()) != dim)
          g.fail("resolution", fmt::format("expected an array of {} positive integers, got {}", dim, describe_json(res)));
        gen.resolution = Eigen::Vector3i::Ones();
        for (int d = 0; d < dim; ++d) {
          if (!res[d].is_number_integer() || res[d].get<long long>() < 1 || res[d].get<long long>() > 10000)
            g.fail("resolution", fmt::format("expected an array of {} integers in [1, 10000], got {}", dim, describe_json(res)));
          gen.resolution[d] = res[d].get<int>();
        }
      }
      if (gen.type == "hollow_box") {
        gen.wall = g.integer("wall", 1, 1, 10000);
        if ((gen.resolution.array() <= 2 * gen.wall).any())
          g.fail("wall", fmt::format("a wall of {} cells leaves no cavity: every resolution must exceed 2 x wall",
                                     gen.wall));
      }
    }
    g.finish();
    b.generator = gen;
  }
  if (r.has("transform")) b.transform = read_transform(r.child("transform"), dim);
  if (r.has("material")) {
    b.material = read_material(r.child("material"), b.kind);
  } else if (b.kind == "shell") {
    b.material.model = "stvk";  // the default membrane model for shells
  }
  b.initial_velocity = read_vec(r, "initial_velocity", Vec3::Zero(), dim);
  if (dim == 3)
    b.initial_angular_velocity = read_vec(r, "initial_angular_velocity", Vec3::Zero(), 3);
  else
    b.initial_angular_velocity.z() = r.number("initial_angular_velocity", 0.0);
  b.initial_scale = r.positive("initial_scale", 1.0);
  b.initial_equilibrium = r.boolean("initial_equilibrium", false);
  if (r.has("fixed")) {
    const JsonReader list = r.child("fixed");
    for (std::size_t i = 0; i < list.array_size(); ++i) {
      const JsonReader f = list.element(i);
      FixedSpec spec;
      spec.selection = read_selection(f, dim);
      spec.velocity = read_vec(f, "velocity", Vec3::Zero(), dim);
      spec.penalty = f.string("method", "eliminate", {"eliminate", "penalty"}) == "penalty";
      if (f.has("limit") || f.has("kappa")) {
        if (!spec.penalty) f.fail_here("\"limit\" and \"kappa\" apply to \"method\": \"penalty\" only");
        spec.limit = f.positive("limit", spec.limit);
        spec.kappa = f.positive("kappa", spec.kappa);
      }
      if (f.has("path")) {
        const JsonReader p = f.child("path");
        double last_t = -HUGE_VAL;
        for (std::size_t k = 0; k < p.array_size(); ++k) {
          const auto& key = p.node()[k];
          if (!key.is_array() || static_cast<int>(key.size()) != dim + 1)
            p.fail_here(fmt::format("expected keyframes [t, offset...] with {} numbers each", dim + 1));
          for (const auto& x : key)
            if (!x.is_number()) p.fail_here("expected numeric keyframes");
          const double t = key[0].get<double>();
          if (!(t > last_t)) p.fail_here("keyframe times must increase");
          last_t = t;
          Vec3 offset = Vec3::Zero();
          for (int d = 0; d < dim; ++d) offset[d] = key[d + 1].get<double>();
          spec.path.emplace_back(t, offset);
        }
        if (spec.path.empty()) p.fail_here("expected at least one keyframe");
        if (f.has("velocity")) f.fail_here("give either \"velocity\" or \"path\", not both");
        if (spec.penalty) f.fail_here("\"path\" is not available with \"method\": \"penalty\"");
      }
      f.finish();
      b.fixed.push_back(std::move(spec));
    }
  }
  if (r.has("slip")) {
    const JsonReader list = r.child("slip");
    for (std::size_t i = 0; i < list.array_size(); ++i) {
      const JsonReader s = list.element(i);
      SlipSpec spec;
      spec.selection = read_selection(s, dim);
      if (s.has("normal") == s.has("direction")) s.fail_here("expected exactly one of \"normal\" (plane) or \"direction\" (line)");
      spec.line = s.has("direction");
      spec.direction = read_vec(s, spec.line ? "direction" : "normal", Vec3::UnitY(), dim);
      if (spec.direction.norm() < 1e-12) s.fail(spec.line ? "direction" : "normal", "expected a non-zero vector");
      spec.direction.normalize();
      s.finish();
      b.slip.push_back(std::move(spec));
    }
  }
  if (r.has("loads")) {
    const JsonReader list = r.child("loads");
    for (std::size_t i = 0; i < list.array_size(); ++i) {
      const JsonReader l = list.element(i);
      LoadSpec spec;
      spec.selection = read_selection(l, dim);
      if (!l.has("force")) l.fail("force", "missing; expected a force vector (N per vertex)");
      spec.force = read_vec(l, "force", Vec3::Zero(), dim);
      l.finish();
      b.loads.push_back(spec);
    }
  }
  if (r.has("tractions")) {
    const JsonReader list = r.child("tractions");
    for (std::size_t i = 0; i < list.array_size(); ++i) {
      const JsonReader t = list.element(i);
      TractionSpec spec;
      spec.selection = read_selection(t, dim);
      if (!spec.selection.box) t.fail_here("a traction needs a \"box\" selecting boundary faces");
      if (!t.has("traction")) t.fail("traction", "missing; expected a traction vector (Pa)");
      spec.traction = read_vec(t, "traction", Vec3::Zero(), dim);
      t.finish();
      b.tractions.push_back(spec);
    }
  }
  if (r.has("volume_penalty")) b.volume_penalties = read_volume_penalties(r.child("volume_penalty"), dim, b.kind);
  r.finish();
  return b;
}

}  // namespace

Scene parse_scene(const nlohmann::json& json, const std::filesystem::path& file) {
  const std::string name = file.empty() ? "(default scene)" : file.string();
  if (!json.is_object()) throw InputError(name + ": expected a JSON object at the top level");
  JsonReader root(json, "", name);
  Scene scene;
  scene.file = file;
  root.string("description", "");
  scene.dim = root.integer("dim", 3, 2, 3);
  const int dim = scene.dim;
  if (root.has("time")) {
    const JsonReader t = root.child("time");
    scene.dt = t.positive("dt", scene.dt);
    if (t.has("end") && t.has("steps")) t.fail_here("give either \"end\" or \"steps\", not both");
    if (t.has("end")) {
      const double end = t.positive("end", 1.0);
      const double steps = std::ceil(end / scene.dt - 1e-9);
      // Checked before the cast: a huge end / dt would overflow int into a negative step count.
      if (!(steps <= kMaxSteps))
        t.fail("end", fmt::format("{:g} s at dt = {:g} s is {:.3g} steps, more than the limit of {}", end, scene.dt,
                                  steps, kMaxSteps));
      scene.steps = static_cast<int>(steps);
    }
    scene.steps = t.integer("steps", scene.steps, 0, kMaxSteps);
    t.finish();
  }
  if (root.has("integrator")) {
    const JsonReader i = root.child("integrator");
    auto& integ = scene.integrator;
    integ.type = i.string("type", integ.type, stepper_names());
    integ.semi_implicit = i.boolean("semi_implicit", integ.semi_implicit);
    integ.form = i.string("form", integ.form, {"potential", "residual"});
    integ.nonlinear_solver =
        i.string("nonlinear_solver", integ.nonlinear_solver, {"projected_newton", "damped_newton", "inexact_newton"});
    if (integ.form == "residual" && integ.nonlinear_solver == "projected_newton") integ.nonlinear_solver = "damped_newton";
    if (integ.form == "potential" && integ.nonlinear_solver != "projected_newton") integ.form = "residual";
    integ.newmark_beta = i.number("beta", integ.newmark_beta, 0.0, 0.5, true);
    integ.newmark_gamma = i.number("gamma", integ.newmark_gamma, 0.0, 1.0, true);
    integ.rho_inf = i.number("rho_inf", integ.rho_inf, 0.0, 1.0);
    i.finish();
  }
  if (root.has("solver")) {
    const JsonReader s = root.child("solver");
    auto& n = scene.integrator.newton;
    n.tolerance = s.positive("tolerance", n.tolerance);
    n.max_iterations = s.integer("max_iterations", n.max_iterations, 1, 100000);
    scene.integrator.max_step_halvings = s.integer("max_step_halvings", scene.integrator.max_step_halvings, 0, 20);
    n.project_psd = s.boolean("project_psd", n.project_psd);
    scene.integrator.linear_solver = s.string("linear_solver", scene.integrator.linear_solver, linear_solver_names());
    scene.on_failure = s.string("on_failure", scene.on_failure, {"error", "continue"});
    scene.inversion_filter = s.boolean("inversion_filter", scene.inversion_filter);
    s.finish();
  }
  scene.gravity = read_vec(root, "gravity", dim == 2 ? Vec3(0, -9.81, 0) : Vec3(0, -9.81, 0), dim);
  if (root.has("damping")) {
    const JsonReader d = root.child("damping");
    scene.rayleigh_alpha = d.number("alpha", 0.0, 0.0);
    scene.rayleigh_beta = d.number("beta", 0.0, 0.0);
    d.finish();
  }
  if (!root.has("bodies")) root.fail("bodies", "missing; a scene needs at least one body");
  const JsonReader bodies = root.child("bodies");
  if (bodies.array_size() == 0) bodies.fail_here("expected at least one body");
  for (std::size_t i = 0; i < bodies.array_size(); ++i) scene.bodies.push_back(read_body(bodies.element(i), dim, i));
  if (root.has("obstacles")) {
    const JsonReader obstacles = root.child("obstacles");
    for (std::size_t i = 0; i < obstacles.array_size(); ++i) {
      const JsonReader o = obstacles.element(i);
      ObstacleSpec spec;
      spec.type = o.string("type", "plane", {"plane", "sphere", "box", "mesh"});
      spec.name = o.string("name", fmt::format("obstacle{}", i));
      spec.path = o.path();
      if (spec.type == "mesh") {
        if (!o.has("mesh")) o.fail("mesh", "missing; a mesh obstacle needs a surface mesh file");
        spec.mesh = o.string("mesh", "");
        if (o.has("transform")) spec.transform = read_transform(o.child("transform"), dim);
        if (o.has("velocity")) spec.velocity = read_vec(o, "velocity", Vec3::Zero(), dim);
        if (o.has("limit")) {
          if (!spec.velocity) o.fail("limit", "applies to a moving mesh (give \"velocity\")");
          spec.limit = o.positive("limit", spec.limit);
        }
      } else if (spec.type == "plane") {
        spec.point = read_vec(o, "point", Vec3::Zero(), dim);
        spec.normal = read_vec(o, "normal", Vec3::UnitY(), dim);
        if (spec.normal.norm() < 1e-12) o.fail("normal", "expected a non-zero vector");
        spec.normal.normalize();
      } else {
        spec.point = read_vec(o, "center", Vec3::Zero(), dim);
        if (spec.type == "sphere") spec.radius = o.positive("radius", spec.radius);
        if (spec.type == "box") {
          spec.size = read_vec(o, "size", Vec3::Ones(), dim, 1.0);
          if (spec.size.head(dim).minCoeff() <= 0) o.fail("size", "expected positive sizes");
        }
      }
      o.finish();
      scene.obstacles.push_back(spec);
    }
  }
  if (root.has("contact")) {
    const JsonReader c = root.child("contact");
    scene.contact.enabled = c.boolean("enabled", scene.contact.enabled);
    scene.contact.type = c.string("type", scene.contact.type, {"barrier", "penalty"});
    const bool penalty = scene.contact.type == "penalty";
    for (const char* key : {"dhat", "barrier", "thickness"})
      if (penalty && c.has(key)) c.fail(key, "applies to contact.type \"barrier\" (penalty contact uses \"delta\")");
    for (const char* key : {"delta", "search_radius"})
      if (!penalty && c.has(key)) c.fail(key, "applies to contact.type \"penalty\"");
    if (c.has("delta")) scene.contact.delta = c.positive("delta", 1e-3);
    if (c.has("search_radius")) scene.contact.search_radius = c.positive("search_radius", 1.0);
    if (c.has("dhat")) scene.contact.dhat = c.positive("dhat", 1e-3);
    if (c.has("kappa")) scene.contact.kappa = c.positive("kappa", 1e5);
    scene.contact.barrier = c.string("barrier", scene.contact.barrier, {"ipc", "book"});
    scene.contact.broad_phase = c.string("broad_phase", scene.contact.broad_phase, {"hash", "bvh"});
    scene.contact.thickness = c.number("thickness", scene.contact.thickness, 0.0);
    if (c.has("friction")) {
      const JsonReader f = c.child("friction");
      auto& fr = scene.contact.friction;
      fr.mu = f.number("mu", fr.mu, 0.0);
      fr.eps_v = f.positive("eps_v", fr.eps_v);
      fr.mode = f.string("mode", fr.mode, {"lagged", "implicit"});
      fr.iterations = f.integer("iterations", fr.iterations, 1, 100);
      fr.smoothing = f.string("smoothing", fr.smoothing, {"c1", "rational"});
      if (f.has("pairs")) {
        const JsonReader pairs = f.child("pairs");
        for (std::size_t k = 0; k < pairs.array_size(); ++k) {
          const JsonReader p = pairs.element(k);
          ContactSpec::Friction::Pair pair;
          pair.path = p.path();
          if (!p.has("bodies")) p.fail("bodies", "missing; expected two body or obstacle names");
          const auto& names = p.node().at("bodies");
          if (!names.is_array() || names.size() != 2 || !names[0].is_string() || !names[1].is_string())
            p.fail("bodies", "expected two body or obstacle names");
          pair.a = names[0].get<std::string>();
          pair.b = names[1].get<std::string>();
          if (!p.has("mu")) p.fail("mu", "missing; expected a number >= 0");
          pair.mu = p.number("mu", 0.0, 0.0);
          for (const std::string& name : {pair.a, pair.b}) {
            const bool body = std::any_of(scene.bodies.begin(), scene.bodies.end(),
                                          [&](const BodySpec& b) { return b.name == name; });
            const bool obstacle = std::any_of(scene.obstacles.begin(), scene.obstacles.end(),
                                              [&](const ObstacleSpec& o) { return o.name == name; });
            if (!body && !obstacle) p.fail("bodies", "no body or obstacle is named \"" + name + "\"");
          }
          p.finish();
          fr.pairs.push_back(pair);
        }
      }
      f.finish();
      const bool friction_on = fr.mu > 0.0 || std::any_of(fr.pairs.begin(), fr.pairs.end(),
                                                           [](const auto& pair) { return pair.mu > 0.0; });
      if (fr.mode == "implicit" && friction_on) {
        // Implicit friction has no potential (seed 003 sec. 4.5): the step is a root-finding
        // problem, so the residual form is the default and the potential form an error.
        auto& integ = scene.integrator;
        const auto& node = root.node();
        const bool potential_given = node.contains("integrator") && node["integrator"].is_object() &&
                                     node["integrator"].value("form", std::string()) == "potential";
        if (potential_given)
          f.fail("mode", "\"implicit\" friction has no potential: it needs integrator.form \"residual\"");
        if (integ.form == "potential") {
          integ.form = "residual";
          integ.nonlinear_solver = "damped_newton";
        }
      }
      // Newton's velocity criterion must resolve the stick-slip velocity, or a body that should
      // start sliding from rest stops after one tiny step: unless solver.tolerance is given,
      // it defaults to eps_v / 10 when friction is on.
      const bool tolerance_given = root.node().contains("solver") && root.node()["solver"].is_object() &&
                                   root.node()["solver"].contains("tolerance");
      if (friction_on && !tolerance_given)
        scene.integrator.newton.tolerance = std::min(scene.integrator.newton.tolerance, 0.1 * fr.eps_v);
    }
    c.finish();
  }
  if (root.has("output")) {
    const JsonReader o = root.child("output");
    scene.output.every = o.integer("every", scene.output.every, 1, 100000000);
    if (o.has("formats")) {
      const auto& f = o.node().at("formats");
      if (!f.is_array()) o.fail("formats", "expected an array of \"vtu\" / \"obj\", got " + describe_json(f));
      scene.output.formats.clear();
      for (const auto& s : f) {
        if (!s.is_string() || (s != "vtu" && s != "obj"))
          o.fail("formats", "expected an array of \"vtu\" / \"obj\", got " + describe_json(f));
        scene.output.formats.push_back(s.get<std::string>());
      }
    }
    if (o.has("track")) {
      const auto& t = o.node().at("track");
      const std::string expected = "expected an array of body or moving mesh obstacle names";
      if (!t.is_array()) o.fail("track", expected + ", got " + describe_json(t));
      for (const auto& name : t) {
        if (!name.is_string()) o.fail("track", expected + ", got " + describe_json(t));
        const std::string n = name.get<std::string>();
        const bool body = std::any_of(scene.bodies.begin(), scene.bodies.end(), [&](const BodySpec& b) { return b.name == n; });
        const bool moving = std::any_of(scene.obstacles.begin(), scene.obstacles.end(), [&](const ObstacleSpec& ob) {
          return ob.name == n && ob.type == "mesh" && ob.velocity;
        });
        if (!body && !moving) o.fail("track", "no body or moving mesh obstacle is named \"" + n + "\"");
        scene.output.track.push_back(n);
      }
    }
    o.finish();
  }
  root.finish();
  return scene;
}

nlohmann::json read_scene_json(const std::filesystem::path& file) {
  std::error_code ec;
  // An ifstream opens a directory, then fails on the first read with a bare libstdc++ message.
  if (std::filesystem::is_directory(file, ec))
    throw InputError(fmt::format("{}: expected a scene file (JSON), found a directory", file.string()));
  std::ifstream in(file);
  if (!in) throw InputError(fmt::format("{}: cannot open the scene file", file.string()));
  nlohmann::json json;
  try {
    json = nlohmann::json::parse(in);
  } catch (const nlohmann::json::parse_error& e) {
    // e.what() names the byte; report the line too.
    throw InputError(fmt::format("{}: malformed JSON: {}", file.string(), e.what()));
  }
  return json;
}

Scene read_scene(const std::filesystem::path& file) { return parse_scene(read_scene_json(file), file); }

}  // namespace softsim
