#pragma once
// Projected Gauss–Seidel on the second-order Coulomb cone, at the velocity level, with
// split-impulse position correction (Le Lidec et al., "Contact models in robotics: a comparative
// analysis", the PGS variant; stages named as in Box2D v3's solver).
//
// Per contact i with lever arms r_A, r_B and contact frame C = [n t1 t2] (n from A towards B),
// the relative velocity in the contact frame is u = C^T (v_B + w_B x r_B - v_A - w_A x r_A).
// An impulse lambda (contact frame) changes it by W lambda, with the 3x3 Delassus block
//   W = C^T (K_A + K_B) C,   K = m^-1 Id - [r]x I^-1 [r]x     ([r]x: cross-product matrix),
// summed over the bodies that move. The contact law is Signorini-Coulomb on the exact cone:
//   lambda in K_mu = { ||lambda_t|| <= mu lambda_n },  u_n >= u_n*,  complementarity,
// with u_n* the target normal velocity (0, or -gap/dt for a speculative contact whose gap may
// close this step but no further; restitution is a stage of its own, applyRestitution).
//
// The sweeps visit manifolds (the up to four points one body pair shares with one normal). A
// visit solves the manifold's own problem, all other impulses fixed, by Gauss–Seidel passes over
// its points on the manifold's 3k x 3k Delassus matrix (no body is touched until the passes end;
// the bodies then take the total change at once): one pass in the sweeps by default, several in
// the shock pass that ends them (below). A point's update:
//   1. the sticking guess lambda - W^-1 (u - u*) with its own 3x3 block, kept if inside the cone;
//   2. otherwise the point separates or slides: the normal impulse by its scalar projection, then
//      the friction by the projected step lambda_t - u_t / lambda_max(W_tt) onto the disk
//      mu lambda_n', with u_t including the change the new normal impulse makes. The scalar step
//      makes the fixed point satisfy maximal dissipation (lambda_t opposite to the slip), which a
//      W_tt^-1 step would not.
// Solving a manifold as a whole pushes a resting face evenly at once; pushed point by point, a
// face is pushed unevenly until the sweeps converge, which tilts stacked boxes. The shock pass
// solves every resting face of a stack as a whole, bottom up, once the sweeps end, which keeps
// stacks standing at a fraction of the cost of several passes at every visit. Between two moving
// bodies its friction, computed against the lower one held still, is not warm-started: the
// contact carries the sweeps' friction into the next step. Carried on both bodies, the pass's
// friction was a push the lower one never had, which the next sweeps undid level by level; on a
// tower of 20 cubes leaning 4 mm per cube that loop grew until a corner slid and the tower fell.
// Sweeps stop when the largest impulse change (as the velocity change it makes at its contact)
// is below the tolerance, or at the iteration cap.
//
// Position drift is removed by split impulses: a separate normal-only pass on pseudo-velocities,
// by each manifold's exact normal block (dynamics/normal_block.hpp), targets
// beta * max(depth - slop, 0) / dt; the pseudo-velocities move the bodies during integration and
// are then discarded, so correcting penetration adds no kinetic energy (unlike Baumgarte
// stabilisation, which feeds the correction into the real velocities).
//
// The soft step (solveSoftStep, dynamics/contact_soft_step.cpp) schedules the same sweeps
// differently: a fixed number of substeps with soft contact rows, in place of the sweeps to
// convergence, the shock pass and the split impulses.

#include <Eigen/Core>
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <tuple>
#include <vector>

#include "dynamics/contact_constraint.hpp"
#include "dynamics/contact_solver_options.hpp"
#include "dynamics/joint_block.hpp"
#include "dynamics/joint_rows.hpp"
#include "dynamics/normal_block.hpp"
#include "dynamics/rigid_body.hpp"
#include "dynamics/sweep_lanes.hpp"
#include "dynamics/team_choice.hpp"
#include "dynamics/team_phases.hpp"
#include "dynamics/union_find.hpp"

namespace hb {

struct ContactSolverStats {
  int iterations = 0;
  /// Largest impulse change in the last velocity sweep, as a velocity change (m/s).
  double residual = 0.0;
  bool converged = false;
  /// Coloured sweeps or soft steps run on one thread though a team was there, because one
  /// thread had cost less lately (TeamChoice; the same bits either way).
  int solvesAlone = 0;
};

/// Pseudo-velocities of the split-impulse pass, per body; used once by the integrator.
struct PseudoVelocities {
  std::vector<Eigen::Vector3d> linear;
  std::vector<Eigen::Vector3d> angular;
};

/// Runs item(i) for every i in [0, count), on several threads at once or not (the engine's
/// workers, engine/worker_pool.hpp); the solver's items never touch each other's data.
using ParallelFor =
    std::function<void(std::size_t count, const std::function<void(std::size_t)>& item)>;

class ContactSolver {
 public:
  /// Islands of at least this many manifolds are swept colour by colour (colourIslands): the
  /// manifolds of one colour share no moving body, so a colour's visits may run at once. The
  /// order depends on the island alone, never on the thread count, so every count gives the
  /// same bits; smaller islands keep their manifolds' order (a colour would be too small to
  /// share out).
  static constexpr int kColouredIsland = 256;
  /// Colours at most; manifolds that find none free are swept last, one after the other.
  static constexpr int kColours = 64;

  /// How the sweeps share out a colour's visits and the small islands; by default one after
  /// the other.
  void setParallelFor(ParallelFor parallelFor) { parallelFor_ = std::move(parallelFor); }
  /// How a coloured island's sweeps share out: runTasks(n, task) runs task(0), ...,
  /// task(n - 1) as n tasks, at once as far as threads are free, and `workers` such tasks
  /// claim each colour's visits as they come (contact_colouring.cpp). By default one task does
  /// all; any number gives the same bits.
  void setTeam(ParallelFor runTasks, int workers) {
    runTasks_ = std::move(runTasks);
    workers_ = std::max(1, workers);
  }
  static void inOrder(std::size_t count, const std::function<void(std::size_t)>& item) {
    for (std::size_t i = 0; i < count; ++i) item(i);
  }

  /// Stage 1: lever arms, Delassus blocks and targets from the pre-solve velocities.
  /// `gravity` (the acceleration of every moving body apart from the contacts) times the
  /// bounces within the step (applyRestitution).
  /// `joints` (dynamics/joint.hpp) are solved in the same sweeps, island by island with the
  /// contacts of the bodies they hold, and take their forces back at the end of stage 3 (in
  /// the soft step, at its end, re-aimed before each of its sweeps). `startSpin`, per body, is
  /// the angular velocity before the step's external torques (empty: the bodies' own), from
  /// which the joints predict their anchors' arcs.
  void prepare(std::span<const RigidBody> bodies, std::span<ContactConstraint> contacts, double dt,
               const ContactSolverOptions& options,
               const Eigen::Vector3d& gravity = Eigen::Vector3d::Zero(),
               std::span<Joint> joints = {}, std::span<const Eigen::Vector3d> startSpin = {});
  /// Stage 2: apply the impulses the contacts carry in (from the pair cache).
  void warmStart(std::span<RigidBody> bodies);
  /// Stage 3: Gauss–Seidel sweeps on the velocities.
  ContactSolverStats solveVelocities(std::span<RigidBody> bodies);
  /// Stage 4: split-impulse position correction; fills the pseudo-velocities.
  void solvePositions(std::span<const RigidBody> bodies, PseudoVelocities& pseudo);
  /// Stage 5, after the positions are integrated: contacts that approached faster than the
  /// restitution threshold before the solve and that the solve had to stop leave with e times
  /// their speed at impact. Normal impulses only, Gauss–Seidel to convergence, with the
  /// contacts that carried weight held at zero normal velocity. Applied after the positions
  /// moved, the bounce starts at the surface in the next step (a bounce in the velocity solve
  /// would turn the body around a speculative gap early and rob it of up to (1 - e^2) of that
  /// gap in rebound height). The contacts keep the impulses of stage 3, for warm starting.
  ///
  /// The impact's time and speed: symplectic Euler moves a body by its velocity after the
  /// step's gravity, which makes the stored velocity the true one half a step earlier (the
  /// scheme is the leapfrog method); from it, the gap and gravity along the normal, the impact
  /// comes at the root of gap + v0 t + a t^2 / 2, at speed v0 + a t. The bounce leaves as the
  /// true rebound would, half a step earlier: e |v*| - a dt / 2. Taken at the step's end
  /// instead, a bounce lost up to g dt / v of its height to the timing and as much again to the
  /// flight (a ball dropped from 1 m with e = 0.5 reached its third apex 25% low at 120 Hz).
  ContactSolverStats applyRestitution(std::span<RigidBody> bodies);

  /// Stages 2-4 at once, the soft step (options.softSubsteps > 0; dynamics/contact_soft_step.cpp):
  /// the step is cut into that many substeps, each of which takes its share of `gravity`, warm
  /// starts with the last substep's impulses, sweeps once with soft rows pushing penetrations
  /// out, moves the bodies, and sweeps once more with rigid rows and no push (the relax sweep,
  /// which takes the push back out of the velocities). Contacts are not recomputed between
  /// substeps: each row's gap follows its bodies' motion to first order. `motion` receives what
  /// moves the bodies over the step to where the substeps took them, beyond their solved
  /// velocities, for the integrator (as the split impulses' pseudo-velocities do). Call after
  /// prepare(), on velocities that do not include the step's gravity yet.
  ContactSolverStats solveSoftStep(std::span<RigidBody> bodies, PseudoVelocities& motion);
  /// Manifolds the last solve's sweeps (the soft step's, or the rigid schedule's velocity
  /// sweeps) visited at once (ContactSolverOptions::sweepLanes), and how many bundles of them
  /// it swept so: 1 and 0 when it visited them one by one.
  int laneWidth() const { return bundles_.empty() ? 1 : laneWidth_; }
  int laneBundles() const { return static_cast<int>(bundles_.size()); }

 private:
  /// What a point's update reads of its own 3x3 Delassus block W.
  struct PointResponse {
    double normalMass = 0.0;             // 1 / W_nn
    double delassusInverse[3][3];        // W^-1
    double normalToTangent[2] = {0, 0};  // W_tn: tangential velocity per unit normal impulse
    double tangentStep = 0.0;            // 1 / lambda_max(W_tt)
  };
  /// The response of a block; false when no impulse can act (W singular or W_nn not positive).
  static bool responseOf(const Eigen::Matrix3d& delassus, PointResponse& response);
  /// One contact as the sweeps see it, fixed at prepare(): everything an update reads, as plain
  /// arrays in one place (the sweeps are the simulator's hottest loop). Contacts that no impulse
  /// can affect get no row.
  struct Row {
    int bodyA = 0, bodyB = 0;
    int contact = 0;         // index into contacts_
    double direction[3][3];  // the contact frame c_k = n, t1, t2 (world)
    /// r_A x c_k and r_B x c_k, r the contact point minus the centre of mass (world): the
    /// relative velocity along c_k is c_k . (v_B - v_A) + (r_B x c_k) . w_B - (r_A x c_k) . w_A.
    double armA[3][3], armB[3][3];
    /// Angular velocity change of A (B) per unit impulse along direction k: I^-1 (r x c_k).
    double turnA[3][3], turnB[3][3];
    PointResponse response;  // of both bodies
    double friction = 0.0;
    double targetNormalVelocity = 0.0;
    double approach = 0.0;       // normal relative velocity before the solve (< 0 approaching)
    double normalGravity = 0.0;  // relative normal acceleration from gravity (m/s^2)
    double restitution = 0.0;
    double largestNormalImpulse = 0.0;  // over the warm start and the sweeps
    double slop = 0.0;                  // m of penetration the position pass leaves
    double endGap = 0.0;                // m: the gap the solved velocities leave at the step's end
    bool bounces = false;               // approached above the threshold and was stopped
    double bounceVelocity = 0.0;        // m/s along the normal it leaves with, when it bounces
    double restitutionImpulse = 0.0;    // the bounce's normal impulse
    double impulse[3] = {0, 0, 0};      // accumulated, contact frame
    double positionTarget = 0.0;
    double positionImpulse = 0.0;
    /// Set when the shock pass moved only one of its bodies: the friction of the sweeps, which
    /// the contact carries into the next step instead of the pass's (solveVelocities).
    bool carriesSweptFriction = false;
    double sweptFriction[2] = {0, 0};
    double separation = 0.0;  // m at prepare(): the gap (> 0) or minus the depth
    /// m/s per unit impulse: the soft normal row's compliance while it is soft (solveSoftStep),
    /// zero for a rigid row. The row then solves u_n - target + compliance lambda_n = 0.
    double compliance = 0.0;
  };
  /// The row of contacts_[index] (prepare), or false when no impulse can act on it: neither body
  /// moves, or its block is singular.
  bool rowOf(std::span<const RigidBody> bodies, int index, Row& row) const;
  /// Copies the bodies' velocities in, and the solved ones of the moving bodies back out.
  void loadVelocities(std::span<const RigidBody> bodies);
  void storeVelocities(std::span<RigidBody> bodies) const;
  static constexpr int kManifoldRows = 3 * NormalBlock::kMaxPoints;
  /// A manifold: consecutive rows of one body pair with one normal, solved as a block.
  struct Manifold {
    int first = 0;
    int count = 0;
    /// Its blocks (blocks_, at the manifold's index) are filled when a sweep or the position
    /// pass first needs them: most manifolds of a pile are speculative and never push.
    bool blocksReady = false;
  };
  /// What a manifold's visits read, apart from the manifold itself: a kilobyte and a half,
  /// kept out of Manifold so that sorting and growing the manifolds moves a few bytes each.
  struct ManifoldBlocks {
    NormalBlock block;  // the normal part, for the position pass
    /// The manifold's Delassus matrix, 3k x 3k (index 3 i + c for point i, direction c): the
    /// velocity change of every point per unit impulse at every point; symmetric, zero past 3k.
    alignas(64) double delassus[kManifoldRows][kManifoldRows];
  };
  void buildManifolds();
  /// Fills manifold k's blocks, once, and returns them.
  ManifoldBlocks& prepareBlocks(int k);
  /// A manifold's Delassus matrix (see Manifold::delassus) from A's terms, B's or both.
  void fillDelassus(const Manifold& m, bool withA, bool withB,
                    double (*delassus)[kManifoldRows]) const;
  /// Groups the manifolds by island and measures each island's depth.
  void buildIslands();
  /// level_: each moving body's support level (1 on something that does not move, one more per
  /// body in between), from the manifolds' neighbours.
  void computeSupportLevels();
  /// Orders the manifolds of each large island by colour (dynamics/contact_colouring.cpp).
  void colourIslands();
  /// Once an island is coloured, stores manifolds and rows in the order the sweeps visit them.
  void layOutInSweepOrder();
  /// An island's sweeps, until it converges or reaches its cap.
  /// `alongside`, for a coloured island on a team: what each worker runs before it joins the
  /// sweeps (work on other islands).
  ContactSolverStats solveIsland(int island, const std::function<void()>& alongside = {});
  /// passPlan_ and smallIslands_, for runManifoldPass (after colourIslands).
  void planManifoldPass();
  /// visit(k) for every manifold k, in sweep order for each body, on the team when there is
  /// enough to share (dynamics/contact_manifold_pass.cpp): the same bits as visiting
  /// islandManifolds_ in order, provided a visit writes only the bodies that move.
  void runManifoldPass(const std::function<void(int)>& visit);
  /// A soft row's spring over a substep h (contact_soft_step.cpp): with omega = 2 pi f and
  /// a1 = 2 zeta + h omega, it pushes out biasRate = omega / a1 of its depth per second, and its
  /// compliance is W_nn / a2 with a2 = h omega a1.
  struct Softness {
    double biasRate = 0.0;
    double a2 = 0.0;
  };
  static Softness springOver(double hertz, double dampingRatio, double substep);
  /// The soft step's springs between moving bodies and against static ones.
  void prepareSoftness(double substep);
  /// What the soft step's sweeps set each row's target from (setSoftTarget).
  enum class SoftSweep { None, Push, Relax };
  /// A row's target (and compliance) for the soft step's current sweep, from its gap as its
  /// bodies have moved so far in the step: soft and pushing out in a Push sweep. Returns the gap.
  double setSoftTarget(int row);
  /// A manifold's impulses, from the step before, as the soft step carries them: split over
  /// the substeps, and their velocity change added to what its moving bodies carry (SoftBody).
  void carryImpulse(int manifold, int substeps);
  /// One sweep over the manifolds of islands_[island], an uncoloured one; returns the largest
  /// impulse change of their visits.
  double sweepIsland(int island);
  /// Up to `sweeps` sweeps over a coloured island, until one's largest change is at most
  /// `tolerance`: the workers of setTeam in one go, a colour's visits claimed a few at a time
  /// and every worker waiting for the colour to be done before the next (no task per colour);
  /// or this thread alone, when that has cost less lately (colouredChoice_).
  ContactSolverStats sweepColoured(int island, int sweeps, double tolerance,
                                   const std::function<void()>& alongside = {});
  /// The iterations, residual and convergence of sweepColoured's sweeps, from sweepLargest_.
  ContactSolverStats sweepStats(int sweeps, double tolerance) const;
  /// What worker `worker` of sweepColoured runs.
  void sweepColouredTogether(int island, int sweeps, double tolerance, int worker);
  /// Zeroes the counters of `phases` team phases and the largest changes of `sweeps` sweeps.
  void readyTeam(std::size_t phases, std::size_t sweeps);
  /// The visits [begin, end) of colourGroups_[group]; returns their largest change.
  double sweepGroup(int group, int begin, int end);
  /// Visits a worker claims at once from colourGroups_[group].
  int visitsPerClaim(int group) const;
  /// The same for `count` visits; `shared`: they may share bodies (all at once, in order).
  int visitsPerClaim(int count, bool shared) const;
  /// A phase of the soft step (softPlan_): its items are bodies (Carry: a substep's gravity and
  /// warm start; Move: the bodies moved by the substep's velocities), small islands swept whole,
  /// a colour group's visits one by one (ColourGroup) or four at a time in lanes (LaneGroup:
  /// its bundles), bundles (Unload: their impulses back into the rows), or rows (Finish: the
  /// step's impulses handed back).
  enum class SoftPhase { Carry, SmallIslands, ColourGroup, LaneGroup, Move, Unload, Finish };
  struct SoftPlanStep {
    SoftPhase kind = SoftPhase::Carry;
    int sweep = 0;  // the sweep whose largest change its visits raise
    int group = 0;  // ColourGroup: index into colourGroups_
    int count = 0, claim = 1;
  };
  /// softPlan_: the soft step's phases in order, for `substeps` substeps.
  void planSoftStep(int substeps);
  /// What worker `worker` of the soft step runs: every phase of softPlan_ in turn.
  void softStepTogether(int worker);
  /// The items [begin, end) of a soft step's phase.
  void softStepItems(const SoftPlanStep& step, int begin, int end);
  /// The colour groups as bundles of 2, 4 or 8 manifolds in lanes (sweep_lanes.hpp,
  /// contact_sweep_lanes.cpp), with the rows' impulses as they are: bundles_[groupBundles_[g],
  /// groupBundles_[g + 1]) for group g, none for the leftover group, which is swept one by one.
  /// For the soft step's sweeps and the rigid schedule's velocity sweeps.
  void buildLanes();
  /// Throws std::invalid_argument unless `lanes` is a width buildLanes knows.
  static void checkLanes(int lanes);
  /// A sweep's visit of bundles_[index]'s manifolds, at once (the soft step's targets while
  /// softSweep_ names one of its sweeps, else the rows' own); returns their largest change.
  double sweepBundle(int index);
  /// The impulses of bundles_[begin, end) back into their rows.
  void unloadLanes(int begin, int end);
  /// One visit of a manifold, with at most `passes` passes. Returns the largest impulse change
  /// of its first pass (as a velocity change, m/s).
  double solveManifold(int k, int passes);
  /// The passes of a visit on a given Delassus matrix and point responses; the bodies whose
  /// `moves` flag is false take no impulse (the shock pass holds the lower body).
  double solvePasses(const Manifold& m, const double (*delassus)[kManifoldRows],
                     const PointResponse* const* responses, int passes, bool movesA, bool movesB);
  /// restitutionRows_: the bouncing rows and those that carry weight, of the islands that bounce.
  void listRestitutionRows();
  /// The normal velocity a bouncing row leaves with (see applyRestitution).
  double bounceVelocity(const Row& row) const;
  /// Shock propagation: the pass after the sweeps, bottom up (see ContactSolverOptions;
  /// dynamics/contact_shock_propagation.cpp).
  void propagateShock();
  /// A point's update in the sweeps (the law above): its next impulse from its impulse
  /// `lambda` and velocity `u`, both in its contact frame.
  static void pointUpdate(const Row& row, const PointResponse& response, const double* lambda,
                          const double* u, double* next);
  /// `response` with a row's compliance c on its normal diagonal: W + c e_n e_n^T, whose
  /// inverse follows from W^-1 by the Sherman–Morrison formula.
  static void softenResponse(const PointResponse& rigid, double compliance, PointResponse& soft);
  /// The bodies of `row` (those whose moves flag is set) take an impulse change: -linear / m_A
  /// and -turnA on A, +linear / m_B and +turnB on B (and, in the soft step, into what they
  /// carry to the next substep's warm start).
  void applyChange(const Row& row, const double* linear, const double* turnA, const double* turnB,
                   bool movesA, bool movesB);
  /// A visit of one pass that applies each point's change to the bodies at once, without the
  /// manifold's Delassus matrix: the same Gauss–Seidel pass up to rounding, for the soft
  /// step's sweeps (contact_soft_step.cpp), which read a kilobyte less per manifold.
  double solvePointByPoint(const Manifold& m, const PointResponse* const* responses, bool movesA,
                           bool movesB);
  /// x . y of two 3-vectors stored as plain arrays, as the sweeps keep them (small fixed-size
  /// Eigen temporaries there were spilled and reloaded in pieces, which cost more than the
  /// arithmetic).
  static double dot(const double* x, const double* y) {
    return x[0] * y[0] + x[1] * y[1] + x[2] * y[2];
  }
  /// Relative velocity of a row along its direction k.
  static double velocity(const Row& row, int k, const SolverBody& a, const SolverBody& b);
  /// Applies an impulse change along a row's direction k: -p on A, +p on B.
  static void apply(const Row& row, int k, double change, SolverBody& a, SolverBody& b);
  /// apply() on the bodies that move only: the visits of a phase may share the others.
  static void applyToMoving(const Row& row, int k, double change, SolverBody& a, SolverBody& b,
                            bool movesA, bool movesB);

  std::span<ContactConstraint> contacts_;
  std::vector<Row> rows_;
  std::vector<SolverBody> solverBodies_;
  std::vector<Eigen::Matrix3d> inverseInertia_;  // world frame, zero for bodies that do not move
  std::vector<char> moves_;  // per body: active, so its solved velocity is written back
  std::vector<Manifold> manifolds_;
  std::vector<ManifoldBlocks> blocks_;  // per manifold, filled as needed (prepareBlocks)
  /// Islands of manifolds (islandManifolds_[first, first + count)), with their depth; a large
  /// one's manifolds are in colour order, colourGroups_[firstGroup, firstGroup + groups).
  struct Island {
    int first = 0, count = 0;
    int depth = 0;
    int firstGroup = 0, groups = 0;  // no groups: swept in order
    int firstJoint = 0, joints = 0;  // islandJoints_[firstJoint, firstJoint + joints)
    int jointBlock = -1;             // jointBlocks_: its joints' held rows as one system
  };
  /// One visit of an island's joints: their held rows (as one block where it has one), then each
  /// joint's free axis; `fraction` > 0 for the position pass. Returns the largest change.
  double solveIslandJoints(const Island& island, double fraction);
  /// One visit of the position pass to manifold k: its points' normal block solved for the
  /// pseudo-impulses that reach their targets (contact_position_pass.cpp).
  void pushOut(int k);
  /// The position passes of a small island, its joints after each.
  void pushOutIsland(const Island& island);
  /// pushingOrder_ and pushingGroups_ from positionNeeded_; readies the team's phases.
  void planPushing();
  /// Worker `worker`'s part of the coloured islands' position passes, colour by colour.
  void pushOutColoured(int worker);
  /// Consecutive manifolds of an island (islandManifolds_[first, first + count)) that share no
  /// moving body, except the last group of an island whose manifolds found no free colour.
  struct ColourGroup {
    int first = 0, count = 0;
    bool shared = false;  // the leftover group: its manifolds may share bodies
  };
  std::vector<Island> islands_;
  std::vector<int> islandManifolds_;
  /// The joints that act (prepare), their rows, and each island's, visited before its manifolds.
  std::span<Joint> joints_;
  std::vector<JointRows> jointRows_;
  std::vector<int> jointOf_;  // per joint row: its joint
  std::vector<int> islandJoints_;
  std::vector<JointBlock> jointBlocks_;
  std::vector<ColourGroup> colourGroups_;
  std::vector<std::uint64_t> bodyColours_;  // per body: colours its manifolds took (colouring)
  std::vector<int> manifoldColour_;         // scratch: per island manifold, its colour
  std::vector<int> byColour_;               // scratch: an island's manifolds in colour order
  /// Per phase of a team's work (a colour group of each sweep of sweepColoured, or a phase of
  /// softPlan_): items claimed and items done.
  TeamPhases phases_;
  /// Per sweep of sweepColoured: the largest change of its visits, as the bits of a double >= 0
  /// (which order as the numbers do).
  std::unique_ptr<std::atomic<std::uint64_t>[]> sweepLargest_;
  std::size_t sweepCapacity_ = 0;
  ParallelFor runTasks_ = inOrder;
  int workers_ = 1;
  /// Whether the coloured sweeps and the soft step run on the team or on one thread, by what
  /// each has cost lately (the same bits either way).
  TeamChoice colouredChoice_, softChoice_;
  std::vector<ContactSolverStats> islandResults_;  // per island, of the last solve
  std::vector<Manifold> sortedManifolds_;          // scratch for layOutInSweepOrder
  std::vector<Row> sortedRows_;
  std::vector<int> sortedFrom_;  // scratch: where each sorted manifold's rows were
  /// Scratch for prepare: per contact, whether it has a row, and one with restitution.
  static constexpr char kNoRow = 0, kRow = 1, kBouncyRow = 2;
  std::vector<char> rowKept_;
  bool anyRestitution_ = false;  // a row has restitution > 0 (else nothing can bounce)
  ParallelFor parallelFor_ = inOrder;
  // Scratch for buildIslands, per body.
  UnionFind islandSets_;
  std::vector<int> level_, islandOf_, frontier_, neighbourStart_, neighbours_;
  /// The position pass (contact_position_pass.cpp): per manifold, whether a point is beyond the
  /// slop; a coloured island's manifolds that push, group by group, and its groups' ranges there.
  std::vector<char> positionNeeded_;
  std::vector<int> pushingOrder_;
  struct PushingGroup {
    int first = 0, count = 0, claim = 1;
    bool startsIsland = false;  // its island's first group with a manifold that pushes
  };
  std::vector<PushingGroup> pushingGroups_;
  /// A visit of the shock pass: manifold k, whose upper body is at `level`.
  struct ShockVisit {
    int level = 0, upper = 0;
    int sweepPosition = 0;  // in islandManifolds_
    int manifold = 0;
    bool operator<(const ShockVisit& o) const {
      return std::tie(level, upper, sweepPosition) < std::tie(o.level, o.upper, o.sweepPosition);
    }
  };
  /// What a shock visit reads: the manifold's Delassus matrix and point responses with its
  /// lower body held (or its ordinary ones on something static).
  struct ShockBlocks {
    alignas(64) double delassus[kManifoldRows][kManifoldRows];
    PointResponse responses[NormalBlock::kMaxPoints];
    bool onStatic = false, upperIsB = false, inert = false;
  };
  /// Prepares a shock visit's blocks; marks the carried friction (see propagateShock).
  void prepareShockVisit(const ShockVisit& visit, ShockBlocks& blocks);
  /// One shock visit of the manifold, up to pointPasses passes over its points; returns its
  /// change (as solvePasses).
  double shockVisit(const ShockVisit& visit, const ShockBlocks& blocks, int pointPasses);
  /// The visits shockOrder_[first, last) of one upper body, until they settle.
  void shockRun(int first, int last);
  std::vector<ShockVisit> shockOrder_;  // the shock pass's visits, in order
  std::vector<int> shockRuns_;          // where each upper body's visits start in shockOrder_
  std::vector<int> restitutionRows_;    // rows taking part in the bounce
  std::vector<SoftBody> softBodies_;    // per body, in the soft step
  std::vector<SoftPlanStep> softPlan_;
  std::vector<int> smallIslands_;  // the islands no colour group sweeps
  /// A phase of runManifoldPass: the small islands (group -1; items: smallIslands_) or a colour
  /// group (items: its manifolds).
  struct PassPhase {
    int group = -1, count = 0, claim = 1;
  };
  std::vector<PassPhase> passPlan_;
  int laneWidth_ = 1;  // lanes per bundle of this step
  std::vector<LanePoint<2>> lanePoints2_;
  std::vector<LanePoint<4>> lanePoints4_;
  std::vector<LanePoint<8>> lanePoints8_;
  LaneSweepSettings laneSettings_;
  std::vector<LaneBundle> bundles_;
  std::vector<int> groupBundles_;
  std::vector<int> laneOrder_;  // scratch: a colour group's manifolds, the most points first
  Softness softMoving_, softFixed_;
  double jointBiasRate_ = 0.0;  // 1/s: the share of their error the joints push out
  /// Before a soft sweep of an island: its joints re-aimed at where its bodies have gone.
  void beginSoftJoints(const Island& island);
  SoftSweep softSweep_ = SoftSweep::None;
  double softSubstep_ = 0.0;  // s: the soft step's substep
  Eigen::Vector3d gravity_ = Eigen::Vector3d::Zero();
  ContactSolverOptions options_;
  double dt_ = 0.0;  // of the step being solved
};

// Inlined into the sweeps (contact_solver.cpp) and the bounce (contact_restitution.cpp), their
// innermost work.
[[gnu::always_inline]] inline double ContactSolver::velocity(const Row& row, int k,
                                                             const SolverBody& a,
                                                             const SolverBody& b) {
  return dot(row.direction[k], b.linear) - dot(row.direction[k], a.linear) +
         dot(row.armB[k], b.angular) - dot(row.armA[k], a.angular);
}

[[gnu::always_inline]] inline void ContactSolver::pointUpdate(const Row& row,
                                                              const PointResponse& response,
                                                              const double* lambda, const double* u,
                                                              double* next) {
  const double residual[3] = {row.targetNormalVelocity - u[0] - row.compliance * lambda[0], -u[1],
                              -u[2]};
  // 1. Sticking guess: the point's 3x3 block solve.
  for (int k = 0; k < 3; ++k) next[k] = lambda[k] + dot(response.delassusInverse[k], residual);
  const double mu = row.friction;
  if (next[0] >= 0.0 && next[1] * next[1] + next[2] * next[2] <= mu * next[0] * (mu * next[0])) {
    return;
  }
  // 2. Separating or sliding: the normal impulse first; the tangential velocity it leaves,
  // u_t + W_tn (lambda_n' - lambda_n), sets the projected tangential step onto the disk
  // (maximal dissipation).
  next[0] = std::max(0.0, lambda[0] + residual[0] * response.normalMass);
  const double normalChange = next[0] - lambda[0];
  double t1 =
      lambda[1] - response.tangentStep * (u[1] + response.normalToTangent[0] * normalChange);
  double t2 =
      lambda[2] - response.tangentStep * (u[2] + response.normalToTangent[1] * normalChange);
  const double limit = mu * next[0];
  const double tn = std::sqrt(t1 * t1 + t2 * t2);
  if (tn > limit) {
    const double scale = tn > 0.0 ? limit / tn : 0.0;
    t1 *= scale;
    t2 *= scale;
  }
  next[1] = t1;
  next[2] = t2;
}

[[gnu::always_inline]] inline void ContactSolver::apply(const Row& row, int k, double change,
                                                        SolverBody& a, SolverBody& b) {
  for (int j = 0; j < 3; ++j) {
    a.linear[j] -= a.inverseMass * change * row.direction[k][j];
    b.linear[j] += b.inverseMass * change * row.direction[k][j];
    a.angular[j] -= change * row.turnA[k][j];
    b.angular[j] += change * row.turnB[k][j];
  }
}

[[gnu::always_inline]] inline void ContactSolver::applyToMoving(const Row& row, int k,
                                                                double change, SolverBody& a,
                                                                SolverBody& b, bool movesA,
                                                                bool movesB) {
  for (int j = 0; j < 3; ++j) {
    if (movesA) {
      a.linear[j] -= a.inverseMass * change * row.direction[k][j];
      a.angular[j] -= change * row.turnA[k][j];
    }
    if (movesB) {
      b.linear[j] += b.inverseMass * change * row.direction[k][j];
      b.angular[j] += change * row.turnB[k][j];
    }
  }
}

}  // namespace hb
