#include "engine/recording/recorder.hpp"

#include <H5Cpp.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <optional>
#include <span>
#include <unordered_map>
#include <unordered_set>

#include "collision/superquadric.hpp"
#include "collision/support_points.hpp"
#include "engine/recording/background_writer.hpp"
#include "engine/recording/hdf5_errors.hpp"
#include "engine/recording/recorder_joints.hpp"
#include "engine/recording/recording_column.hpp"
#include "engine/recording/recording_error.hpp"
#include "engine/recording/recording_layout.hpp"
#include "engine/recording/recording_rows.hpp"
#include "engine/recording/run_attributes.hpp"
#include "engine/world.hpp"

namespace hb {
namespace {

using namespace recording;
using Eigen::Vector3d;

// "labels_<field>": the names of an enum field's values, as an array of fixed-length strings.
void writeLabels(const H5::DataSet& dataset, const std::string& field,
                 const std::vector<std::string>& labels) {
  std::size_t width = 1;
  for (const std::string& l : labels) width = std::max(width, l.size());
  std::string packed;
  for (const std::string& l : labels) packed += l + std::string(width - l.size(), '\0');
  const H5::StrType type = fixedStringType(width);
  const hsize_t n = labels.size();
  dataset.createAttribute(attr::kLabelsPrefix + field, type, H5::DataSpace(1, &n))
      .write(type, packed.data());
}

// Built once, shared by every recorder and never destroyed (see chunkedDeflate()).
const H5::FileCreatPropList& fileCreation() {
  static const H5::FileCreatPropList* const creation = [] {
    auto* created = new H5::FileCreatPropList;
    // Chunk-index B-tree nodes are allocated whole: the default (64 entries, ~2.5 KiB each)
    // would be a large part of a short recording. Small nodes keep the original file format,
    // which any HDF5 reader opens, even after a killed run (files in the 1.10 format, with its
    // compact chunk indexes, cannot be opened again unless closed cleanly).
    created->setIstorek(kChunkIndexK);
    // No modification times in the object headers: HDF5 would update them at every change, and
    // without them a run's recording is the same bytes whenever and however often it is made.
    H5Pset_obj_track_times(created->getId(), false);
    return created;
  }();
  return *creation;
}

/// Rows of the shape tables for the world as it is when the recording starts.
struct ShapeRows {
  hsize_t hulls = 0;
  hsize_t vertices = 0;
  hsize_t faceOffsets = 0;
  hsize_t faceIndices = 0;
  hsize_t proxies = 0;
  hsize_t bodies = 0;
};

ShapeRows shapeRows(const World& world) {
  ShapeRows rows;
  rows.proxies = world.proxies().size();
  rows.bodies = world.bodies().size();
  std::unordered_set<const ConvexHull*> seen;
  const auto count = [&](const ConvexHull& hull) {
    if (!seen.insert(&hull).second) return;
    ++rows.hulls;
    rows.vertices += hull.numVertices();
    rows.faceOffsets += hull.numFaces() + 1;
    for (int f = 0; f < hull.numFaces(); ++f) rows.faceIndices += hull.face(f).size();
  };
  for (const Proxy& p : world.proxies()) {
    if (p.shape.type() != ShapeType::ConvexHull) continue;
    count(p.shape.hull());
    count(p.shape.coreHull());  // the hull itself when it is not rounded
  }
  return rows;
}

/// Throws RecordingError naming `path` if it cannot be created: its folder is missing or not
/// writable, or the file exists and is not writable. The writer thread creates the file (HDF5),
/// and reports whatever else may fail then (a full disk, a folder at that path).
void checkCreatable(const std::filesystem::path& path) {
  const std::filesystem::path folder = path.has_parent_path() ? path.parent_path() : ".";
  const bool fails = ::access(path.c_str(), F_OK) == 0 ? ::access(path.c_str(), W_OK) != 0
                                                       : ::access(folder.c_str(), W_OK | X_OK) != 0;
  if (fails) {
    throw RecordingError("recording " + path.string() + ": cannot create: " + std::strerror(errno));
  }
}

/// Chunks of `rows` rows, within [least, most]; of `most` when no row is known yet.
hsize_t chunkRowsFor(hsize_t rows, hsize_t least, hsize_t most) {
  return rows == 0 ? most : std::clamp(rows, least, most);
}

}  // namespace

struct Recorder::Impl {
  Impl(const std::filesystem::path& p, const World& world, const RecordingMetadata& meta)
      : path(p),
        initialRows(shapeRows(world)),
        hulls(dataset::kHulls, hullLayout(),
              chunkRowsFor(initialRows.hulls, kLeastChunkRows, kSmallChunkRows), encoder),
        hullVertices(dataset::kHullVertices, {3},
                     chunkRowsFor(initialRows.vertices, kSmallChunkRows, kHullVertexChunkRows),
                     encoder),
        hullFaceOffsets(dataset::kHullFaceOffsets, {},
                        chunkRowsFor(initialRows.faceOffsets, kSmallChunkRows, kHullFaceChunkRows),
                        encoder),
        hullFaceIndices(dataset::kHullFaceIndices, {},
                        chunkRowsFor(initialRows.faceIndices, kSmallChunkRows, kHullFaceChunkRows),
                        encoder),
        proxies(dataset::kProxies, proxyLayout(),
                chunkRowsFor(initialRows.proxies, kLeastChunkRows, kSmallChunkRows), encoder),
        bodies(dataset::kBodies, bodyLayout(),
               chunkRowsFor(initialRows.bodies, kLeastChunkRows, kSmallChunkRows), encoder),
        states(dataset::kStates, stateLayout(), kStateChunkRows, encoder),
        problems(dataset::kProblems, problemLayout(), kProblemChunkRows, encoder),
        steps(dataset::kSteps, stepLayout(), kStepChunkRows, encoder),
        joints(world, encoder),
        shapes{&hulls, &hullVertices, &hullFaceOffsets, &hullFaceIndices, &proxies, &bodies} {
    // A path that cannot be written fails at once; the file, its datasets and attributes (~1 ms
    // of HDF5 work) are created on the writer thread, as its first job.
    checkCreatable(path);
    appendNewBodies(world);
    beginStep(world);
    // The shapes and bodies go to disk at once (in the background); the states wait for a
    // full chunk.
    std::vector<std::function<void()>> jobs;
    jobs.push_back([this, run = describeRun(world, meta)] { createFile(run); });
    for (AppendableColumn* c : shapes) {
      if (auto job = c->takeAll()) jobs.push_back(std::move(job));
    }
    jobs.push_back([this] { flushFile(); });
    submit(std::move(jobs));
  }

  std::string where() const { return "recording " + path.string(); }
  std::vector<AppendableColumn*> columns() {
    std::vector<AppendableColumn*> all{&hulls,           &hullVertices, &hullFaceOffsets,
                                       &hullFaceIndices, &proxies,      &bodies,
                                       &states,          &problems,     &steps};
    for (AppendableColumn* c : joints.columns()) all.push_back(c);
    return all;
  }

  /// Writer thread: the HDF5 file, its datasets and their attributes, the metadata.
  void createFile(const RunDescription& run);
  /// Writer thread: closes the datasets and the file, once every other job ran.
  void closeFile();
  int hullIndex(const std::shared_ptr<const ConvexHull>& hull);
  /// A prescribed support function's points (its profile as (r, z, 0) for a solid of
  /// revolution): a hull row without faces.
  int pointSetIndex(const std::shared_ptr<const SmoothConvex>& body);
  void appendNewBodies(const World& world);
  void beginStep(const World& world);
  /// Completes the pending step row with the step that ran from it (no step: substeps 0).
  void endStep(const SolverDescription& solver, int problemCount, int substeps);
  void appendProblems(const World& world);
  void appendProblems(const World& world, std::span<const NarrowPhaseRecord* const> records);
  std::vector<const NarrowPhaseRecord*> stepRecords;  // the step's, by substep
  /// Hands the rows over to the writer thread: full chunks, or with `all` every row, and then
  /// the file is closed.
  void handOver(bool all);
  /// Runs `jobs` in order on the writer thread, as one job: one wake-up of the thread.
  void submit(std::vector<std::function<void()>> jobs);
  void flushFile();

  std::filesystem::path path;
  ShapeRows initialRows;
  ChunkEncoder encoder;            // used by the columns' jobs, on the writer thread
  std::optional<H5::H5File> file;  // created, used and closed by the writer thread's jobs
  Column<HullRow> hulls;
  Column<double> hullVertices;
  Column<std::int64_t> hullFaceOffsets;
  Column<std::int32_t> hullFaceIndices;
  Column<ProxyRow> proxies;
  Column<BodyRow> bodies;
  Column<StateRow> states;
  Column<ProblemRow> problems;
  Column<StepRow> steps;
  JointColumns joints;                    // none without joints (format version 6)
  std::vector<AppendableColumn*> shapes;  // small tables, written whole at every hand-over

  std::unordered_map<const ConvexHull*, int> hullIndices;
  std::vector<std::shared_ptr<const ConvexHull>> hullsKept;  // keeps the keys' addresses unique
  std::unordered_map<const SmoothConvex*, int> pointSetIndices;
  std::vector<std::shared_ptr<const SmoothConvex>> pointSetsKept;
  std::size_t bodiesWritten = 0;
  std::size_t proxiesWritten = 0;
  std::int64_t faceIndexCount = 0;
  std::uint64_t chunksAtFlush = 0;  // full chunks of the growing tables at the last flush
  // The row of the latest state, completed once the step that starts from it has run.
  std::optional<StepRow> pending;
  SolverDescription pendingSolver;  // for the last row, which no step completes
  bool open = true;
  std::atomic<std::uintmax_t> bytes = 0;
  // Compresses and writes on its own thread; last member, so it stops before the rest goes.
  BackgroundWriter writer;
};

int Recorder::Impl::hullIndex(const std::shared_ptr<const ConvexHull>& hull) {
  const auto found = hullIndices.find(hull.get());
  if (found != hullIndices.end()) return found->second;
  const int index = static_cast<int>(hullsKept.size());
  hullIndices.emplace(hull.get(), index);
  hullsKept.push_back(hull);
  hulls.add(HullRow{static_cast<std::int64_t>(hullVertices.rows()), hull->numVertices(),
                    static_cast<std::int64_t>(hullFaceOffsets.rows()), hull->numFaces()});
  static_assert(sizeof(Vector3d) == 3 * sizeof(double), "vertices are packed triples");
  const std::vector<Vector3d>& vertices = hull->vertices();
  if (!vertices.empty()) hullVertices.add(vertices.front().data(), vertices.size());
  for (int f = 0; f < hull->numFaces(); ++f) {
    const std::span<const int> face = hull->face(f);
    hullFaceOffsets.add(faceIndexCount);
    hullFaceIndices.add(face.data(), face.size());
    faceIndexCount += static_cast<std::int64_t>(face.size());
  }
  hullFaceOffsets.add(faceIndexCount);  // the end of the hull's last face
  return index;
}

int Recorder::Impl::pointSetIndex(const std::shared_ptr<const SmoothConvex>& body) {
  const auto found = pointSetIndices.find(body.get());
  if (found != pointSetIndices.end()) return found->second;
  const auto& points = dynamic_cast<const SupportPoints&>(*body);
  std::vector<Vector3d> stored;
  if (points.isRevolution()) {
    for (const Eigen::Vector2d& p : points.profile()) stored.emplace_back(p.x(), p.y(), 0.0);
  } else {
    stored = points.points();
  }
  const int index = static_cast<int>(hullsKept.size());
  hullsKept.push_back(nullptr);
  pointSetsKept.push_back(body);
  pointSetIndices.emplace(body.get(), index);
  hulls.add(HullRow{static_cast<std::int64_t>(hullVertices.rows()),
                    static_cast<std::int32_t>(stored.size()),
                    static_cast<std::int64_t>(hullFaceOffsets.rows()), 0});
  hullVertices.add(stored.front().data(), stored.size());
  hullFaceOffsets.add(faceIndexCount);  // no faces: the end offset alone
  return index;
}

void Recorder::Impl::appendNewBodies(const World& world) {
  const std::vector<Proxy>& worldProxies = world.proxies();
  for (; proxiesWritten < worldProxies.size(); ++proxiesWritten) {
    const Proxy& p = worldProxies[proxiesWritten];
    ProxyRow row{};
    row.body = p.body;
    row.shapeType = static_cast<std::int8_t>(p.shape.type());
    row.radius = p.shape.radius();
    row.halfLength = p.shape.halfLength();
    put(row.halfExtents, p.shape.halfExtents());
    const bool isHull = p.shape.type() == ShapeType::ConvexHull;
    const bool rounded = isHull || p.shape.type() == ShapeType::Box;
    row.hull = isHull ? hullIndex(p.shape.hullPtr()) : -1;
    row.convexRadius = rounded ? p.shape.convexRadius() : 0.0;
    row.coreHull = isHull && p.shape.convexRadius() > 0.0 ? hullIndex(p.shape.coreHullPtr()) : -1;
    // Smooth shapes reuse the fields: a superquadric's radii in half_extents, its exponents in
    // radius (alpha1) and half_length (alpha2); a prescribed support function's points in a hull
    // row without faces, beta in radius and gamma in half_length (0: the point form).
    if (p.shape.type() == ShapeType::Superquadric) {
      const auto& body = dynamic_cast<const Superquadric&>(p.shape.smooth());
      row.radius = body.alpha1();
      row.halfLength = body.alpha2();
      row.convexRadius = p.shape.convexRadius();
    } else if (p.shape.type() == ShapeType::SupportPoints) {
      const auto& body = dynamic_cast<const SupportPoints&>(p.shape.smooth());
      row.hull = pointSetIndex(p.shape.smoothPtr());
      row.radius = body.beta();
      row.halfLength = body.isRevolution() ? body.gamma() : 0.0;
    }
    put(row.positionInBody, p.inBody.p);
    put(row.orientationInBody, p.inBody.q);
    put(row.obbCenter, p.localObb.center);
    for (int i = 0; i < 3; ++i) {
      for (int j = 0; j < 3; ++j) row.obbAxes[i][j] = p.localObb.axes(i, j);
    }
    put(row.obbHalfExtents, p.localObb.halfExtents);
    proxies.add(row);
  }
  const std::vector<WorldBody>& worldBodies = world.bodies();
  const std::vector<RigidBody>& rigid = world.rigidBodies();
  for (; bodiesWritten < worldBodies.size(); ++bodiesWritten) {
    const WorldBody& b = worldBodies[bodiesWritten];
    const RigidBody& r = rigid[bodiesWritten];
    BodyRow row{};
    putName(row.name, b.name);
    putName(row.asset, b.asset ? b.asset->name : std::string());
    row.isStatic = r.isStatic ? 1 : 0;
    row.mass = r.inverseMass > 0.0 ? 1.0 / r.inverseMass : 0.0;
    row.friction = b.material.friction;
    row.restitution = b.material.restitution;
    row.firstStep = world.stepCount();
    bodies.add(row);
  }
}

void Recorder::Impl::beginStep(const World& world) {
  const std::vector<RigidBody>& rigid = world.rigidBodies();
  StepRow row{};
  row.step = world.stepCount();
  row.time = world.time();
  row.bodyCount = static_cast<std::int32_t>(rigid.size());
  row.stateBegin = static_cast<std::int64_t>(states.rows());
  row.problemBegin = static_cast<std::int64_t>(problems.rows());
  pending = row;
  pendingSolver = world.scene().solver;
  for (const RigidBody& r : rigid) {
    StateRow& s = states.add();
    put(s.position, r.position);
    put(s.orientation, r.orientation);
    put(s.linearVelocity, r.linearVelocity);
    put(s.angularVelocity, r.angularVelocity);
    s.sleeping = r.sleeping ? 1 : 0;
  }
  joints.addStep(world);
}

void Recorder::Impl::endStep(const SolverDescription& solver, int problemCount, int substeps) {
  StepRow row = *pending;
  row.problemCount = problemCount;
  row.substeps = static_cast<std::int8_t>(substeps);
  row.gjkVariant = static_cast<std::int8_t>(solver.gjkVariant);
  row.warmStart = static_cast<std::int8_t>(solver.warmStart);
  row.gjkTolerance = solver.gjkTolerance;
  row.gjkMaxIterations = solver.gjkMaxIterations;
  steps.add(row);
  pending.reset();
}

void Recorder::Impl::appendProblems(const World& world) {
  // Every substep's narrow phase, in order of the substeps: islands that took different counts
  // of substeps (World::step) ran theirs in turn, and their substeps k are one round here.
  stepRecords.clear();
  for (const auto* records : {&world.earlierSubstepRecords(), &world.narrowPhaseRecords()}) {
    for (const NarrowPhaseRecord& record : *records) stepRecords.push_back(&record);
  }
  std::stable_sort(stepRecords.begin(), stepRecords.end(),
                   [](const NarrowPhaseRecord* a, const NarrowPhaseRecord* b) {
                     return a->substep < b->substep;
                   });
  appendProblems(world, stepRecords);
}

void Recorder::Impl::appendProblems(const World& world,
                                    std::span<const NarrowPhaseRecord* const> records) {
  const std::vector<Proxy>& worldProxies = world.proxies();
  const std::int64_t step = world.stepCount() - 1;
  for (size_t k = 0; k < records.size(); ++k) {
    const NarrowPhaseRecord& record = *records[k];
    if (!record.queried) continue;  // its kept manifold answered: no problem was solved
    const CollisionResult& r = record.result;
    ProblemRow& row = problems.add();
    row.step = step;
    row.substep = static_cast<std::int8_t>(record.substep);
    row.proxyA = record.proxyA;
    row.proxyB = record.proxyB;
    row.bodyA = worldProxies[record.proxyA].body;
    row.bodyB = worldProxies[record.proxyB].body;
    row.exactInputs = 1;  // the record carries the query's own poses and hints
    put(row.positionA, record.poseA.p);
    put(row.orientationA, record.poseA.q);
    put(row.positionB, record.poseB.p);
    put(row.orientationB, record.poseB.q);
    put(row.obbCenterA, record.obbCenterA);
    put(row.obbCenterB, record.obbCenterB);
    if (record.previous) {
      row.hasPrevious = 1;
      put(row.previousSeparation, record.previous->separation);
      put(row.previousWitnessALocal, record.previous->witnessALocal);
      put(row.previousWitnessBLocal, record.previous->witnessBLocal);
      row.previousOverlapping = record.previous->overlapping ? 1 : 0;
    }
    put(row.initialGuess, record.initialGuess);
    row.supportHints[0] = record.hints.a;
    row.supportHints[1] = record.hints.b;
    row.collide = r.collide ? 1 : 0;
    row.distance = r.distance;
    put(row.normal, r.normal);
    put(row.witnessA, r.witnessA);
    put(row.witnessB, r.witnessB);
    put(row.separation, r.witnessA - r.witnessB);
    row.gjkIterations = r.gjkIterations;
    row.gjkStatus = static_cast<std::int8_t>(r.gjkStatus);
    row.epaIterations = r.epaIterations;
    row.epaStatus = r.epaStatus ? static_cast<std::int8_t>(*r.epaStatus) : std::int8_t{-1};
    row.separationBound = record.margin;
    const WarmSimplex& warm = record.warmSimplex;
    row.warmSimplexSize = static_cast<std::int8_t>(warm.size);
    for (int i = 0; i < 4; ++i) {
      for (int j = 0; j < 3; ++j) {
        row.warmSimplexA[i][j] = i < warm.size ? warm.a[i][j] : 0.0;
        row.warmSimplexB[i][j] = i < warm.size ? warm.b[i][j] : 0.0;
      }
    }
  }
}

void Recorder::Impl::createFile(const RunDescription& run) {
  try {
    file.emplace(path.string(), H5F_ACC_TRUNC, fileCreation());
    // Units right after each dataset, labels and metadata after all of them: the order of the
    // objects in the file, which must not depend on anything but the run.
    const std::pair<AppendableColumn*, const char*> units[] = {
        {&hulls, ""},
        {&hullVertices, ""},
        {&hullFaceOffsets, ""},
        {&hullFaceIndices, ""},
        {&proxies,
         "radius: m, half_length: m, half_extents: m, convex_radius: m, position_in_body: m, "
         "obb_center: m, obb_half_extents: m"},
        {&bodies, "mass: kg"},
        {&states, "position: m, linear_velocity: m/s, angular_velocity: rad/s"},
        {&problems,
         "position_a: m, position_b: m, obb_center_a: m, obb_center_b: m, "
         "previous_separation: m, previous_witness_a_local: m, previous_witness_b_local: m, "
         "initial_guess: m, distance: m, witness_a: m, witness_b: m, separation: m, "
         "separation_bound: m"},
        {&steps, "time: s, gjk_tolerance: m^2"},
    };
    for (const auto& [column, text] : units) {
      column->create(*file);
      if (*text) writeTextAttribute(column->dataset(), attr::kUnits, text);
    }
    joints.create(*file);
    writeLabels(proxies.dataset(), "shape_type", labels<ShapeType>(kShapeTypeCount));
    writeLabels(problems.dataset(), "gjk_status", labels<GjkStatus>(kGjkStatusCount));
    writeLabels(problems.dataset(), "epa_status", labels<EpaStatus>(kEpaStatusCount));
    writeLabels(steps.dataset(), "gjk_variant", labels<GjkVariant>(kGjkVariantCount));
    writeLabels(steps.dataset(), "warm_start", labels<WarmStart>(kWarmStartCount));
    writeRunAttributes(*file, run);
  } catch (const H5::Exception& e) {
    throw RecordingError(where() + ": cannot create: " + describe(e));
  }
}

void Recorder::Impl::closeFile() {
  // The datasets first: with any of them open, closing the file would leave it open, its last
  // metadata unwritten until the recorder is destroyed (after the batch renamed the file).
  for (AppendableColumn* c : columns()) c->close();
  file->close();
}

void Recorder::Impl::flushFile() {
  file->flush(H5F_SCOPE_GLOBAL);
  bytes = file->getFileSize();
}

void Recorder::Impl::handOver(bool all) {
  // Growing tables go in whole chunks, each compressed once. Every kChunksPerFlush of their
  // chunks, the step index and the shapes follow whole, then the file is flushed, so the file on
  // disk holds a readable prefix of the run (counted in chunks, not seconds, so that the file's
  // bytes do not depend on the machine's speed). The last hand-over (all rows) closes the file,
  // which flushes it.
  std::vector<std::function<void()>> jobs;
  for (AppendableColumn* c : std::initializer_list<AppendableColumn*>{&states, &problems}) {
    if (auto job = all ? c->takeAll() : c->takeFullChunks()) jobs.push_back(std::move(job));
  }
  const std::uint64_t chunks = states.fullChunks() + problems.fullChunks();
  if (all || chunks >= chunksAtFlush + kChunksPerFlush) {
    chunksAtFlush = chunks;
    for (AppendableColumn* c : shapes) {
      if (auto job = c->takeAll()) jobs.push_back(std::move(job));
    }
    if (auto job = steps.takeAll()) jobs.push_back(std::move(job));
    for (AppendableColumn* c : joints.columns()) {
      if (auto job = c->takeAll()) jobs.push_back(std::move(job));
    }
    if (all) {
      jobs.push_back([this] { closeFile(); });
    } else {
      jobs.push_back([this] { flushFile(); });
    }
  } else if (steps.bufferedRows() >= kStepChunkRows) {
    if (auto job = steps.takeFullChunks()) jobs.push_back(std::move(job));
    for (AppendableColumn* c : joints.columns()) {
      if (auto job = c->takeFullChunks()) jobs.push_back(std::move(job));
    }
  }
  if (!jobs.empty()) submit(std::move(jobs));
}

void Recorder::Impl::submit(std::vector<std::function<void()>> jobs) {
  writer.submit([this, jobs = std::move(jobs)] {
    recording::silenceHdf5Errors();  // HDF5 error stacks are per thread
    try {
      for (const auto& job : jobs) job();
    } catch (const H5::Exception& e) {
      throw RecordingError(where() + ": cannot write: " + describe(e));
    }
  });
}

Recorder::Recorder(const std::filesystem::path& file, const World& world,
                   const RecordingMetadata& meta) {
  recording::silenceHdf5Errors();
  try {
    impl_ = std::make_unique<Impl>(file, world, meta);
  } catch (const H5::Exception& e) {
    throw RecordingError("recording " + file.string() + ": cannot create: " + describe(e));
  }
  spdlog::debug("recording to {}", file.string());
}

Recorder::~Recorder() {
  if (!impl_ || !impl_->open) return;
  try {
    close();
  } catch (const std::exception& e) {
    spdlog::error("{}", e.what());
  }
}

void Recorder::record(const World& world) {
  if (!impl_->open) throw RecordingError(impl_->where() + ": record() after close()");
  recording::silenceHdf5Errors();
  Impl& d = *impl_;
  try {
    // New bodies and proxies first: this step's problems may refer to them.
    d.appendNewBodies(world);
    const auto problemsBefore = d.problems.rows();
    d.appendProblems(world);
    // Settings change between steps only, so now they are those the step ran with.
    d.endStep(world.scene().solver, static_cast<int>(d.problems.rows() - problemsBefore),
              world.lastStep().substeps);
    d.beginStep(world);
    d.handOver(false);
  } catch (const H5::Exception& e) {
    throw RecordingError(d.where() + ": cannot append step " + std::to_string(world.stepCount()) +
                         ": " + describe(e));
  }
}

void Recorder::close() {
  if (!impl_->open) return;
  Impl& d = *impl_;
  d.open = false;
  recording::silenceHdf5Errors();
  try {
    // The last state has no step after it: its row lists no problems.
    if (d.pending) d.endStep(d.pendingSolver, 0, 0);
    d.handOver(true);
    d.writer.finish();
  } catch (const H5::Exception& e) {
    throw RecordingError(d.where() + ": cannot finish: " + describe(e));
  }
  std::error_code error;
  const std::uintmax_t size = std::filesystem::file_size(d.path, error);
  if (!error) d.bytes = size;
}

std::uintmax_t Recorder::bytesWritten() const {
  return impl_->bytes;
}

}  // namespace hb
