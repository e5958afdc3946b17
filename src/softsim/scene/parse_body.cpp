#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "softsim/fem/shell_membrane.hpp"
#include "softsim/material/material.hpp"
#include "softsim/scene/scene_sections.hpp"

namespace softsim {

Vec3 read_vec(const JsonReader& r, const std::string& key, const Vec3& fallback, int dim, double fill) {
  const VecX v = r.vector(key, fallback.head(dim), dim);
  Vec3 out = Vec3::Constant(fill);
  out.head(dim) = v;
  return out;
}

Vec3 required_vec(const JsonReader& r, const std::string& key, int dim) {
  if (!r.has(key)) r.fail(key, fmt::format("missing; expected {} numbers", dim));
  return read_vec(r, key, Vec3::Zero(), dim);
}

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

namespace {

MaterialSpec read_material(const JsonReader& r, BodyKind kind) {
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
  if (r.has("bending") && kind != BodyKind::shell) r.fail("bending", "applies to shell bodies only");
  m.bending = r.choice("bending", m.bending);
  if (kind == BodyKind::shell && !ShellMembrane::supports(m.model))
    r.fail("model", "shells support \"stvk\" and \"neo_hookean\" membranes, got \"" + m.model + "\"");
  m.mass = r.choice("mass", MassDistribution::lumped);
  r.finish();
  return m;
}

// Round shapes: radius, inner_radius, resolution (an integer), layers.
void read_round_generator(const JsonReader& g, GeneratorSpec& gen) {
  gen.radius = g.positive("radius", 0.5);
  const bool hollow = gen.type != GeneratorType::sphere;
  // Cells along the ball's diameter (sphere) or along each cube-face edge of the cubed sphere.
  gen.resolution = Eigen::Vector3i::Constant(g.integer("resolution", 8, gen.type == GeneratorType::bowl ? 2 : 1, 1000));
  if (!hollow) return;
  gen.inner_radius = g.number("inner_radius", 0.8 * gen.radius, 0.0, HUGE_VAL, true);
  if (!(gen.inner_radius < gen.radius))
    g.fail("inner_radius", fmt::format("expected less than radius ({:g} m), got {:g}", gen.radius, gen.inner_radius));
  gen.layers = g.integer("layers", 2, 1, 1000);
  if (gen.type == GeneratorType::bowl && gen.resolution.x() % 2 != 0)
    g.fail("resolution", fmt::format("a bowl needs an even resolution (its rim is the cubed sphere's equator), got {}",
                                     gen.resolution.x()));
}

// The options of tetrahedralize.hpp; the ranges are those check_tetrahedralize_options enforces.
TetrahedralizeOptions read_tetrahedralize(const JsonReader& t) {
  TetrahedralizeOptions o;
  if (t.has("edge_length") && t.has("max_volume")) t.fail_here("give one size bound, \"edge_length\" or \"max_volume\"");
  o.edge_length = t.optional_number("edge_length", 0.0, true);
  o.max_volume = t.optional_number("max_volume", 0.0, true);
  o.max_radius_edge_ratio = t.number("max_radius_edge_ratio", o.max_radius_edge_ratio, 1.0, 1e6);
  o.min_dihedral_degrees = t.number("min_dihedral_degrees", o.min_dihedral_degrees, 0.0, 18.0);
  o.keep_surface = t.boolean("keep_surface", o.keep_surface);
  t.finish();
  return o;
}

BodySpec read_body(const JsonReader& r, int dim, std::size_t index) {
  BodySpec b;
  b.path = r.path();
  b.name = r.string("name", fmt::format("body{}", index));
  b.kind = r.choice("kind", b.kind,
                    dim == 3 ? std::vector<BodyKind>{}
                             : std::vector<BodyKind>{BodyKind::solid, BodyKind::mass_spring, BodyKind::affine});
  if (r.has("mesh") == r.has("generator")) r.fail_here("expected exactly one of \"mesh\" or \"generator\"");
  if (r.has("affine")) {
    if (b.kind != BodyKind::affine) r.fail("affine", "applies to a body of \"kind\": \"affine\"");
    const JsonReader a = r.child("affine");
    b.affine.rigid = a.boolean("rigid", false);
    b.affine.stiffness = a.number("stiffness", b.affine.rigid ? 1e8 : 0.0, 0.0, 1e20);
    if (b.affine.rigid && !(b.affine.stiffness > 0.0)) a.fail("stiffness", "a rigid body needs a positive stiffness");
    b.affine.tolerance = a.number("tolerance", b.affine.tolerance, 1e-14, 1.0);
    if (a.has("tolerance") && !b.affine.rigid) a.fail("tolerance", "applies to \"rigid\": true");
    a.finish();
  }
  if (r.has("reduction")) {
    if (b.kind == BodyKind::affine) r.fail("reduction", "applies to a deformable body: an affine body is already reduced");
    const JsonReader red = r.child("reduction");
    ReductionSpec spec;
    spec.path = red.path();
    if (red.has("file")) {
      if (red.has("basis") || red.has("size"))
        red.fail_here("give either \"file\" (a basis written by softsim reduce) or \"basis\" and \"size\"");
      spec.file = red.string("file", "");
    } else {
      spec.basis = red.choice("basis", spec.basis, {ReducedBasisKind::modes, ReducedBasisKind::modes_and_derivatives});
      spec.size = red.integer("size", spec.size, 1, 100000);
    }
    if (red.has("cubature")) {
      if (b.kind != BodyKind::solid) red.fail("cubature", "applies to a \"solid\" body (FEM triangles or tetrahedra)");
      const JsonReader c = red.child("cubature");
      spec.cubature_elements = c.integer("elements", 60, 1, 1000000);
      spec.cubature_tolerance = c.number("tolerance", spec.cubature_tolerance, 1e-12, 1.0);
      spec.cubature_poses = c.integer("poses", 0, 1, 100000);
      c.finish();
    }
    red.finish();
    b.reduction = spec;
  }
  if (r.has("mesh")) b.mesh = r.string("mesh", "");
  if (r.has("tetrahedralize")) {
    if (!is_simplex_solid(b.kind) || dim != 3 || !b.mesh)
      r.fail("tetrahedralize", "applies to a 3D \"solid\" or \"affine\" body whose \"mesh\" is a closed triangle surface");
    b.tetrahedralize = read_tetrahedralize(r.child("tetrahedralize"));
  }
  if (r.has("generator")) {
    const JsonReader g = r.child("generator");
    GeneratorSpec gen;
    using G = GeneratorType;
    const std::vector<G> types = dim == 3 ? std::vector<G>{G::box, G::hollow_box, G::sheet, G::sphere, G::hollow_sphere, G::bowl}
                                          : std::vector<G>{G::rectangle, G::spring_grid};
    if (!g.has("type")) {
      std::vector<std::string> names;
      for (G t : types) names.emplace_back(name_of(t));
      g.fail("type", fmt::format("missing; expected one of {}", fmt::join(names, ", ")));
    }
    gen.type = g.choice("type", types.front(), types);
    if (is_round(gen.type)) {
      read_round_generator(g, gen);
    } else {
      gen.size = read_vec(g, "size", Vec3::Ones(), dim, 1.0);
      // A sheet lies in the x-z plane: its y size is ignored.
      const double smallest = gen.type == G::sheet ? std::min(gen.size.x(), gen.size.z()) : gen.size.head(dim).minCoeff();
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
      if (gen.type == G::hollow_box) {
        gen.wall = g.integer("wall", 1, 1, 10000);
        if ((gen.resolution.array() <= 2 * gen.wall).any())
          g.fail("wall", fmt::format("a wall of {} cells leaves no cavity: every resolution must exceed 2 x wall",
                                     gen.wall));
      }
    }
    g.finish();
    b.generator = gen;
  }
  b.refine = r.integer("refine", 0, 0, 4);
  if (r.has("transform")) b.transform = read_transform(r.child("transform"), dim);
  if (r.has("material")) {
    b.material = read_material(r.child("material"), b.kind);
  } else if (b.kind == BodyKind::shell) {
    b.material.model = "stvk";  // the default membrane model for shells
  }
  b.initial_velocity = read_vec(r, "initial_velocity", Vec3::Zero(), dim);
  if (dim == 3)
    b.initial_angular_velocity = read_vec(r, "initial_angular_velocity", Vec3::Zero(), 3);
  else
    b.initial_angular_velocity.z() = r.number("initial_angular_velocity", 0.0);
  if (r.has("initial_scale") && r.node()["initial_scale"].is_array()) {
    b.initial_scale = read_vec(r, "initial_scale", Vec3::Ones(), dim, 1.0);
    if (!(b.initial_scale.head(dim).minCoeff() > 0.0)) r.fail("initial_scale", "expected positive factors");
  } else {
    b.initial_scale = Vec3::Constant(r.positive("initial_scale", 1.0));
  }
  b.initial_equilibrium = r.boolean("initial_equilibrium", false);
  if (r.has("contact_area")) b.contact_area = r.positive("contact_area", 1.0);
  b.self_contact = r.boolean("self_contact", true);
  b.fixed = r.list("fixed", [&](const JsonReader& f) {
    FixedSpec spec;
    spec.selection = read_selection(f, dim);
    read_motion(f, dim, spec);
    if (f.has("angular_velocity")) {
      if (dim == 3)
        spec.angular_velocity = read_vec(f, "angular_velocity", Vec3::Zero(), 3);
      else
        spec.angular_velocity.z() = f.number("angular_velocity", 0.0);
      if (f.has("limit") || f.has("limit_by"))
        f.fail("angular_velocity", "a rotating motion has no travel \"limit\"");
      if (spec.penalty && !spec.path.empty() && spec.rotates())
        f.fail("angular_velocity", "a motion driven by \"method\": \"penalty\" follows either a \"path\" or a rotation, not both");
    }
    if (f.has("release")) {
      if (!spec.penalty) f.fail("release", "applies to \"method\": \"penalty\" only");
      const JsonReader rel = f.child("release");
      FixedSpec::Release r;
      const std::string axis = rel.string("axis", "x", dim == 3 ? std::vector<std::string>{"x", "y", "z"}
                                                                : std::vector<std::string>{"x", "y"});
      r.axis = axis[0] - 'x';
      if (!rel.has("above")) rel.fail_here("expected \"above\": the coordinate every vertex of the body must pass");
      r.above = rel.number("above", 0.0);
      rel.finish();
      spec.release = r;
    }
    if (f.has("rotation_center")) {
      if (!spec.rotates()) f.fail("rotation_center", "applies to a rotating motion (give a non-zero \"angular_velocity\")");
      spec.rotation_center = read_vec(f, "rotation_center", Vec3::Zero(), dim);
    }
    f.finish();
    return spec;
  });
  b.slip = r.list("slip", [&](const JsonReader& s) {
    SlipSpec spec;
    spec.selection = read_selection(s, dim);
    if (s.has("normal") == s.has("direction")) s.fail_here("expected exactly one of \"normal\" (plane) or \"direction\" (line)");
    spec.line = s.has("direction");
    spec.direction = read_vec(s, spec.line ? "direction" : "normal", Vec3::UnitY(), dim);
    if (spec.direction.norm() < 1e-12) s.fail(spec.line ? "direction" : "normal", "expected a non-zero vector");
    spec.direction.normalize();
    s.finish();
    return spec;
  });
  b.loads = r.list("loads", [&](const JsonReader& l) {
    LoadSpec spec;
    spec.selection = read_selection(l, dim);
    if (!l.has("force")) l.fail("force", "missing; expected a force vector (N per vertex)");
    spec.force = read_vec(l, "force", Vec3::Zero(), dim);
    spec.from = l.number("from", 0.0, 0.0);
    spec.until = l.optional_number("until", spec.from, true).value_or(HUGE_VAL);
    l.finish();
    return spec;
  });
  b.tractions = r.list("tractions", [&](const JsonReader& t) {
    TractionSpec spec;
    spec.selection = read_selection(t, dim);
    if (!spec.selection.box) t.fail_here("a traction needs a \"box\" selecting boundary faces");
    if (!t.has("traction")) t.fail("traction", "missing; expected a traction vector (Pa)");
    spec.traction = read_vec(t, "traction", Vec3::Zero(), dim);
    t.finish();
    return spec;
  });
  if (r.has("volume_penalty")) b.volume_penalties = read_volume_penalties(r.child("volume_penalty"), dim, b.kind);
  r.finish();
  return b;
}

}  // namespace

// velocity | path, method, limit, kappa of a prescribed motion (fixed[j], a moving obstacle).
void read_motion(const JsonReader& f, int dim, MotionSpec& spec) {
  spec.velocity = read_vec(f, "velocity", Vec3::Zero(), dim);
  spec.penalty = f.string("method", "eliminate", {"eliminate", "penalty"}) == "penalty";
  if (f.has("limit") || f.has("kappa") || f.has("hold_when_met") || f.has("limit_by")) {
    if (!spec.penalty)
      f.fail_here("\"limit\", \"limit_by\", \"kappa\" and \"hold_when_met\" apply to \"method\": \"penalty\" only");
    spec.limit_by_position = f.string("limit_by", "time", {"time", "position"}) == "position";
    spec.limit = f.positive("limit", spec.limit);
    spec.kappa = f.positive("kappa", spec.kappa);
    spec.hold_when_met = f.boolean("hold_when_met", spec.hold_when_met);
  }
  if (f.has("from") || f.has("until")) {
    if (!spec.penalty) f.fail_here("\"from\" and \"until\" apply to \"method\": \"penalty\" only");
    if (f.has("limit")) f.fail_here("\"from\" / \"until\" and \"limit\" do not combine (the limit counts from t = 0)");
    spec.from = f.number("from", 0.0);
    spec.until = f.number("until", HUGE_VAL);
    if (!(spec.from >= 0.0) || !(spec.until > spec.from)) f.fail_here("expected 0 <= \"from\" < \"until\"");
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
    if (spec.penalty && (f.has("limit") || f.has("limit_by")))
      f.fail_here("a \"path\" has no travel \"limit\": its last keyframe ends the motion");
  }
}

std::vector<BodySpec> read_bodies(const JsonReader& list, int dim) {
  if (list.array_size() == 0) list.fail_here("expected at least one body");
  std::vector<BodySpec> bodies;
  for (std::size_t i = 0; i < list.array_size(); ++i) bodies.push_back(read_body(list.element(i), dim, i));
  return bodies;
}

}  // namespace softsim
