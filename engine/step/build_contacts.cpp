// The contact stage of World::step (buildContacts): each touching pair's manifold and its
// contact constraints, built on the world's workers and gathered in pair order, warm-started from
// the pair cache; a compound's contacts reduced per contact region.

#include <algorithm>
#include <cmath>
#include <limits>

#include "engine/contact_reduction.hpp"
#include "engine/step/stages.hpp"

namespace hb {
namespace {

/// Contacts of consecutive steps are the same contact when their points on A are this close (m).
constexpr double kContactMatchRadius = 0.01;

/// A touching pair's contact constraints (on a worker).
void pairContacts(const PairContactInputs& in, const NarrowPhaseRecord& record,
                  PairContacts& made) {
  made.count = 0;
  made.source = ManifoldSource::None;
  made.keptManifold.reset();
  const CollisionResult& r = record.result;
  if (r.gjkStatus == GjkStatus::InvalidInput || !(r.distance < record.margin)) return;
  const Proxy& pa = in.pieces.proxy[record.proxyA];
  const Proxy& pb = in.pieces.proxy[record.proxyB];
  // shift: A's motion relative to B until they meet, for a manifold at its time of impact.
  Eigen::Vector3d shift = Eigen::Vector3d::Zero();
  const ContactManifold manifold = pairManifold(in, record, shift, made);
  const Material& a = in.bodies.info[pa.body].material;
  const Material& b = in.bodies.info[pb.body].material;
  // A fifth of the thinner piece may stay in penetration, at most (the solver's slop is
  // sized for bodies of centimetres).
  const double maxSlop =
      0.2 * std::min(pa.localObb.halfExtents.minCoeff(), pb.localObb.halfExtents.minCoeff());
  const Pose bodyA = bodyPose(in.bodies, pa.body);
  for (int i = 0; i < manifold.size; ++i) {
    const ContactPoint& point = manifold.points[i];
    ContactConstraint& contact = made.contacts[made.count++];
    contact = ContactConstraint{};
    contact.bodyA = pa.body;
    contact.bodyB = pb.body;
    // On A where it is now; B's arm from where A meets it; the gap as it is now.
    contact.point = 0.5 * (point.pointA + point.pointB) - shift;
    contact.offsetOnB = shift;
    contact.normal = manifold.normal;
    contact.buildTangents();
    contact.depth = point.depth - shift.dot(manifold.normal);
    contact.maxSlop = maxSlop;
    contact.friction = std::sqrt(a.friction * b.friction);
    contact.restitution = std::max(a.restitution, b.restitution);
    if (record.cache) {
      PairCache::warmStart(*record.cache, contact, bodyA, kContactMatchRadius, in.clock.h);
    }
  }
}

/// Contacts of one body pair through several pieces, reduced per contact region.
void reduceContacts(StepContext& c) {
  // A compound touching through many pieces keeps four points per contact region
  // (engine/contact_reduction.hpp); each record keeps its surviving contacts, in order.
  reduceContactRegions(c.contacts, c.keepContact);
  int kept = 0;
  for (NarrowPhaseRecord& record : c.narrowPhase) {
    const int first = record.firstContact;
    record.firstContact = kept;
    for (int k = first; k < first + record.contactCount; ++k) {
      if (c.keepContact[k]) c.contacts[kept++] = c.contacts[k];
    }
    record.contactCount = kept - record.firstContact;
  }
  c.contacts.resize(kept);
}

}  // namespace

void buildContacts(const PairContactInputs& in, WorkerPool& workers, StepContext& c,
                   StepStatistics& stats) {
  // Each pair's contacts on the workers, then gathered in pair order: where each pair's go from
  // the summaries, one after the other, and the copies on the workers again.
  const size_t pairs = c.narrowPhase.size();
  c.pairContacts.resize(pairs);
  c.pairSummaries.resize(pairs);
  workers.forEach(pairs, [&](size_t i) {
    const NarrowPhaseRecord& record = c.narrowPhase[i];
    PairContacts& made = c.pairContacts[i];
    pairContacts(in, record, made);
    StepContext::PairSummary& summary = c.pairSummaries[i];
    summary.count = made.count;
    summary.source = made.source;
    summary.deepest = -std::numeric_limits<double>::infinity();
    for (int k = 0; k < made.count; ++k) {
      summary.deepest = std::max(summary.deepest, made.contacts[k].depth);
    }
    summary.compound =
        made.count > 0 && (isCompound(in.bodies, in.pieces.proxy[record.proxyA].body) ||
                           isCompound(in.bodies, in.pieces.proxy[record.proxyB].body));
  });
  c.reusedManifolds = 0;
  int total = 0;
  bool compounds = false;
  for (StepContext::PairSummary& summary : c.pairSummaries) {
    summary.first = total;
    total += summary.count;
    if (summary.count > 0) stats.maxPenetration = std::max(stats.maxPenetration, summary.deepest);
    if (summary.source == ManifoldSource::Impact) ++stats.impactPairs;
    if (summary.source == ManifoldSource::Reposed) ++c.reusedManifolds;
    compounds |= summary.compound;
  }
  c.contacts.resize(total);
  workers.forEach(pairs, [&](size_t i) {
    NarrowPhaseRecord& record = c.narrowPhase[i];
    const StepContext::PairSummary& summary = c.pairSummaries[i];
    record.firstContact = summary.first;
    record.contactCount = summary.count;
    std::copy_n(c.pairContacts[i].contacts.begin(), summary.count,
                c.contacts.begin() + summary.first);
  });
  // A pair of single pieces has at most a manifold's four points, which reduction keeps.
  if (compounds) reduceContacts(c);
  stats.contacts = static_cast<int>(c.contacts.size());
}

}  // namespace hb
