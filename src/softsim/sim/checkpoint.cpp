#include "softsim/sim/checkpoint.hpp"

#include <fmt/format.h>

#include <fstream>
#include <iterator>

#include "softsim/core/errors.hpp"
#include "softsim/core/hash.hpp"
#include "softsim/io/atomic_file.hpp"

namespace softsim {

namespace {

constexpr std::string_view kMagic = "SOFTSIM CHECKPOINT\n";
// 2: the state's subspace coordinates (State::y, y_dot) after its positions and velocities.
constexpr std::int64_t kVersion = 2;
constexpr std::size_t kHeaderBytes = kMagic.size() + 3 * sizeof(std::int64_t);

std::string payload_of(const Checkpoint& c) {
  ArchiveWriter out;
  out.tag("run");
  out.integer(static_cast<std::int64_t>(c.fingerprint));
  out.text(c.scene_file);
  out.integer(c.step);
  out.integer(c.steps_requested);
  out.integer(c.failed_steps);
  out.integer(c.subdivided_steps);
  out.real(c.wall_seconds);
  out.integer(static_cast<std::int64_t>(c.stats_bytes));
  out.integer(static_cast<std::int64_t>(c.contact_forces_bytes));
  out.tag("state");
  out.vector(c.state.x);
  out.vector(c.state.v);
  out.real(c.state.t);
  out.vector(c.state.y);
  out.vector(c.state.y_dot);
  out.integer(c.state.coordinates_current ? 1 : 0);
  out.tag("frames");
  out.integer(static_cast<std::int64_t>(c.frames.size()));
  for (const PvdEntry& e : c.frames) {
    out.real(e.time);
    out.text(e.file);
    out.integer(e.part);
  }
  out.tag("stepper");
  out.text(c.stepper);
  out.text(c.stepper_bytes);
  return out.bytes();
}

Checkpoint checkpoint_of(std::string_view payload) {
  ArchiveReader in(payload);
  Checkpoint c;
  constexpr std::int64_t kMaxSteps = 100000000;
  in.expect("run");
  c.fingerprint = static_cast<std::uint64_t>(in.integer());
  c.scene_file = in.text();
  c.step = static_cast<int>(in.integer(0, kMaxSteps, "step"));
  c.steps_requested = static_cast<int>(in.integer(0, kMaxSteps, "steps requested"));
  c.failed_steps = static_cast<int>(in.integer(0, kMaxSteps, "failed steps"));
  c.subdivided_steps = static_cast<int>(in.integer(0, kMaxSteps, "subdivided steps"));
  c.wall_seconds = in.real();
  c.stats_bytes = static_cast<std::uint64_t>(in.integer(0, INT64_MAX, "stats.csv length"));
  c.contact_forces_bytes = static_cast<std::uint64_t>(in.integer(0, INT64_MAX, "contact_forces.csv length"));
  in.expect("state");
  c.state.x = in.vector();
  c.state.v = in.vector();
  c.state.t = in.real();
  if (c.state.x.size() != c.state.v.size())
    throw ArchiveError(fmt::format("{} positions but {} velocities", c.state.x.size(), c.state.v.size()));
  // A run stepped in coordinates continues from the very coordinates it stopped at (positions
  // taken back to coordinates differ from them by round-off).
  c.state.y = in.vector();
  c.state.y_dot = in.vector();
  c.state.coordinates_current = in.integer(0, 1, "coordinates flag") == 1;
  if (c.state.y.size() != c.state.y_dot.size())
    throw ArchiveError(fmt::format("{} coordinates but {} rates", c.state.y.size(), c.state.y_dot.size()));
  if (c.state.coordinates_current && c.state.y.size() == 0) throw ArchiveError("current coordinates but none stored");
  in.expect("frames");
  const auto frames = in.integer(0, static_cast<std::int64_t>(payload.size()), "frame count");
  c.frames.resize(frames);
  for (PvdEntry& e : c.frames) {
    e.time = in.real();
    e.file = in.text();
    e.part = static_cast<int>(in.integer(0, 1 << 20, "frame part"));
  }
  in.expect("stepper");
  c.stepper = in.text();
  c.stepper_bytes = in.text();
  if (!in.at_end()) throw ArchiveError("unexpected data after the end");
  return c;
}

}  // namespace

std::uint64_t run_fingerprint(const Scene& scene, const Model& model, const Stepper& stepper) {
  std::uint64_t h = scene.fingerprint;
  const VecX& x = model.rest_positions;
  h = fnv1a_64(std::string_view(reinterpret_cast<const char*>(x.data()), sizeof(double) * x.size()), h);
  return fnv1a_64(stepper.name(), h);
}

std::filesystem::path checkpoint_path(const std::filesystem::path& out_dir) { return out_dir / "checkpoint.bin"; }

std::string checkpoint_scene_file(const std::filesystem::path& scene_file) {
  return scene_file.empty() ? std::string() : std::filesystem::absolute(scene_file).lexically_normal().string();
}

void cut_table_to_checkpoint(const std::filesystem::path& file, std::uint64_t bytes) {
  std::error_code ec;
  const std::uintmax_t size = std::filesystem::file_size(file, ec);
  if (ec)
    throw InputError(fmt::format("{}: missing or unreadable, where the checkpoint says it holds {} bytes; cannot resume",
                                 file.string(), bytes));
  if (size < bytes)
    throw InputError(fmt::format("{}: {} bytes, shorter than the {} the checkpoint says it held; cannot resume",
                                 file.string(), size, bytes));
  std::filesystem::resize_file(file, bytes, ec);
  if (ec) throw RunError(fmt::format("{}: cannot cut it back to the checkpoint ({})", file.string(), ec.message()));
}

void write_checkpoint(const std::filesystem::path& path, const Checkpoint& c) {
  const std::string payload = payload_of(c);
  ArchiveWriter header;
  header.integer(kVersion);
  header.integer(static_cast<std::int64_t>(payload.size()));
  header.integer(static_cast<std::int64_t>(fnv1a_64(payload)));
  write_file_atomically(path, [&](std::ostream& out) { out << kMagic << header.bytes() << payload; }, /*synced=*/true);
}

Checkpoint read_checkpoint(const std::filesystem::path& path) {
  const std::string name = path.string();
  std::error_code ec;
  if (!std::filesystem::exists(path, ec))
    throw InputError(fmt::format("{}: no checkpoint to resume from (a run writes one every output.checkpoint_every "
                                 "steps, and when it is interrupted with Ctrl-C)",
                                 name));
  std::ifstream file(path, std::ios::binary);
  if (!file) throw InputError(fmt::format("{}: cannot open the checkpoint", name));
  const std::string bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  if (bytes.size() < kMagic.size() || std::string_view(bytes).substr(0, kMagic.size()) != kMagic)
    throw InputError(fmt::format("{}: not a softsim checkpoint", name));
  if (bytes.size() < kHeaderBytes)
    throw InputError(fmt::format("{}: the checkpoint is truncated ({} bytes, its header alone is {})", name,
                                 bytes.size(), kHeaderBytes));
  ArchiveReader header(std::string_view(bytes).substr(kMagic.size(), kHeaderBytes - kMagic.size()));
  const std::int64_t version = header.integer();
  if (version != kVersion)
    throw InputError(fmt::format("{}: checkpoint format version {}, this softsim reads version {}", name, version,
                                 kVersion));
  const std::int64_t length = header.integer();
  const auto checksum = static_cast<std::uint64_t>(header.integer());
  const std::string_view payload = std::string_view(bytes).substr(kHeaderBytes);
  if (length < 0 || static_cast<std::uint64_t>(length) != payload.size())
    throw InputError(fmt::format("{}: the checkpoint is truncated or padded ({} bytes of data where its header says {})",
                                 name, payload.size(), length));
  if (fnv1a_64(payload) != checksum)
    throw InputError(fmt::format("{}: the checkpoint is corrupt (its checksum does not match its data)", name));
  try {
    return checkpoint_of(payload);
  } catch (const ArchiveError& e) {
    throw InputError(fmt::format("{}: the checkpoint is corrupt: {}", name, e.what()));
  }
}

void restore_run_state(const std::filesystem::path& path, const Checkpoint& c, std::uint64_t fingerprint,
                       const std::string& stepper_name, const std::function<void(ArchiveReader&)>& load) {
  const std::string name = path.string();
  if (c.stepper != stepper_name)
    throw InputError(fmt::format("{}: the checkpoint was written by a run with integrator '{}', this scene steps with "
                                 "'{}'",
                                 name, c.stepper, stepper_name));
  if (c.fingerprint != fingerprint)
    throw InputError(fmt::format("{}: the checkpoint was written by another scene (or the scene file or its meshes "
                                 "changed since; only time.steps, time.end and output.checkpoint_every may change)",
                                 name));
  try {
    ArchiveReader in(c.stepper_bytes);
    load(in);
    if (!in.at_end()) throw ArchiveError("unexpected data after the saved state");
  } catch (const ArchiveError& e) {
    throw InputError(fmt::format("{}: the checkpoint does not fit this run: {}", name, e.what()));
  }
}

void restore_stepper(const std::filesystem::path& path, const Checkpoint& c, std::uint64_t fingerprint,
                     Stepper& stepper) {
  restore_run_state(path, c, fingerprint, stepper.name(), [&](ArchiveReader& in) { stepper.load(in); });
}

}  // namespace softsim
