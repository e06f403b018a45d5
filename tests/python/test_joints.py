"""Joints from Python: add_joint, world.joints, motors, targets, limits, springs and friction,
checked against what mechanics gives (a pendulum's period, a servo's end position, static
torques, a spring's period, friction's threshold), and bad arguments raising ValueError or
IndexError that name them, before anything changes."""

import math

import numpy as np
import pytest

import heavyball

G = 9.81


def scene(gravity=(0.0, 0.0, -G), bodies=(), **extra):
    # No ground: the bodies hang or turn in the air; awake throughout, so every step is solved.
    out = {"name": "joints", "gravity": list(gravity), "bodies": list(bodies),
           "solver": {"sleeping": False}}
    out.update(extra)
    return out


def ball(position, mass=1.0, radius=0.05):
    return {"shape": {"type": "sphere", "radius": radius}, "mass": mass,
            "pose": {"p": list(position)}}


def sphere_inertia(mass, radius):
    return 0.4 * mass * radius**2


def crossings(times, values, level=0.0):
    """Times where values cross `level`, linearly interpolated between samples."""
    v = np.asarray(values) - level
    i = np.nonzero(np.sign(v[:-1]) * np.sign(v[1:]) < 0)[0]
    return times[i] + (times[i + 1] - times[i]) * v[i] / (v[i] - v[i + 1])


def run(world, steps):
    """Steps, recording time, joint position and velocity after each step."""
    t, q, v = [], [], []
    for _ in range(steps):
        world.step()
        j = world.joints
        t.append(world.time)
        q.append(j.position.copy())
        v.append(j.velocity.copy())
    return np.array(t), np.array(q), np.array(v)


def elliptic_k(k):
    """The complete elliptic integral of the first kind K(k), by the arithmetic-geometric mean."""
    a, b = 1.0, math.sqrt(1.0 - k * k)
    while abs(a - b) > 1e-15:
        a, b = 0.5 * (a + b), math.sqrt(a * b)
    return math.pi / (2.0 * a)


# --- A pendulum added from Python


def pendulum(length=1.0, mass=1.0, radius=0.05, amplitude=math.radians(5.0), joint_rate=240.0,
             soft_substeps=0):
    """A ball hanging `length` below a hinge on the world (axis y), pushed at the bottom so that
    it swings to `amplitude`; returns the world, the joint and the period of small swings."""
    pivot = np.array([0.0, 0.0, 2.0])
    description = scene(bodies=[ball(pivot - [0, 0, length], mass, radius)])
    description["solver"]["joint_rate"] = joint_rate
    description["solver"]["soft_substeps"] = soft_substeps
    world = heavyball.World(description)
    joint = world.add_joint("revolute", (0, 1), pivot, axis=(0, 1, 0))
    inertia = sphere_inertia(mass, radius) + mass * length**2
    # Energy at the bottom that lifts the ball to the amplitude: I w^2 / 2 = m g l (1 - cos a).
    w = math.sqrt(2.0 * mass * G * length * (1.0 - math.cos(amplitude)) / inertia)
    # Turning about +y, the ball (below the pivot) moves along -x.
    world.set_body_state(1, linear_velocity=[-w * length, 0, 0], angular_velocity=[0, w, 0])
    return world, joint, 2.0 * math.pi * math.sqrt(inertia / (mass * G * length))


@pytest.mark.parametrize("soft_substeps", [0, 4])  # the rigid schedule, the soft step
def test_a_pendulum_added_from_python_swings_with_the_analytic_period(soft_substeps):
    amplitude = math.radians(5.0)
    world, joint, small = pendulum(amplitude=amplitude, soft_substeps=soft_substeps)
    assert joint == 0 and world.joint_count == 1
    # Finite amplitude: T = T0 (2 / pi) K(sin(a / 2)) (0.05% longer at 5 degrees).
    expected = small * 2.0 / math.pi * elliptic_k(math.sin(amplitude / 2.0))
    t, q, v = run(world, int(10.0 / world.dt))
    zeros = crossings(t, q[:, joint])
    assert len(zeros) >= 9
    # Every second crossing is one period on.
    periods = zeros[2:] - zeros[:-2]
    error = periods.mean() / expected - 1.0
    assert abs(error) < 0.005, f"period {periods.mean():.5f} s against {expected:.5f} s"
    assert np.ptp(periods) < 0.01 * expected
    # The swing keeps its amplitude, and the hinge holds.
    assert np.max(np.abs(q[:, joint])) == pytest.approx(amplitude, rel=0.02)
    assert world.joints.error[joint] < 1e-4


def test_the_joint_arrays_agree_with_each_other_and_with_the_bodies():
    # Steps left whole (joint_rate 0), so that the position moves by the velocity after the step.
    world, joint, _ = pendulum(amplitude=math.radians(30.0), joint_rate=0.0)
    t, q, v = run(world, 240)
    # The velocity is the rate of the position: the steps' finite differences, within 0.1% of
    # the largest rate.
    rate = np.diff(q[:, joint]) / world.dt
    assert np.max(np.abs(rate - v[1:, joint])) < 1e-3 * np.max(np.abs(v[:, joint]))
    # The position is the ball's turn about the hinge (y) since it was added: its orientation's,
    # and, within the joint's error, the angle of its centre about the pivot.
    j = world.joints
    w, _, y, _ = world.orientations[1]
    assert j.position[joint] == pytest.approx(2.0 * math.atan2(y, w), abs=1e-12)
    offset = world.positions[1] - j.anchor[joint]
    angle = math.atan2(-offset[0], -offset[2])  # turning about +y from hanging straight down
    assert j.position[joint] == pytest.approx(angle, abs=1e-5)
    assert 0 < j.error[joint] < 1e-5
    np.testing.assert_allclose(j.anchor[joint], [0, 0, 2], atol=1e-12)
    np.testing.assert_allclose(j.axis[joint], [0, 1, 0], atol=1e-12)
    # Shapes and types.
    n = world.joint_count
    assert len(j) == j.count == n == 1 and j.type == ["revolute"]
    assert j.bodies.shape == (n, 2) and j.bodies.tolist() == [[0, 1]]
    assert j.force.shape == (n, 6) and j.anchor.shape == (n, 3) and j.axis.shape == (n, 3)
    for name in ("position", "velocity", "error", "target_position", "target_velocity",
                 "motor_enabled", "motor_force", "spring_force", "friction_force",
                 "lower_force", "upper_force"):
        assert getattr(j, name).shape == (n,), name
    for name in ("turn", "spin", "target_turn", "target_spin"):
        assert getattr(j, name).shape == (n, 3), name
    assert set(j.to_dict()) == {"type", "name", "bodies", "position", "velocity", "error",
                                "target_position", "target_velocity", "motor_enabled",
                                "motor_force", "spring_force", "friction_force", "lower_force",
                                "upper_force", "force", "anchor", "axis", "turn", "spin",
                                "target_turn", "target_spin"}
    # A hinge's turn is its position about its axis (y), its spin its velocity.
    np.testing.assert_allclose(j.turn[joint], [0, 0, j.position[joint]], atol=1e-12)
    np.testing.assert_allclose(j.spin[joint], [0, 0, j.velocity[joint]], atol=1e-12)
    # No motor, spring, friction or limit: they exert nothing.
    assert not j.motor_enabled[0]
    for name in ("motor_force", "spring_force", "friction_force", "lower_force", "upper_force"):
        assert getattr(j, name)[0] == 0.0, name


def test_the_joint_arrays_are_read_only_copies():
    world, joint, _ = pendulum(amplitude=math.radians(30.0))
    before = world.joints
    position = before.position.copy()
    with pytest.raises(ValueError):
        before.position[0] = 1.0
    world.step(30)
    assert np.array_equal(before.position, position)
    assert world.joints.position[0] != position[0]


def test_the_hinge_carries_the_weight_of_what_it_holds():
    # A ball 0.5 m out on a hinge (axis y) held level by a servo: the motor carries the
    # weight's torque m g l, and the joint holds the ball up with m g.
    mass, arm = 2.0, 0.5
    world = heavyball.World(scene(bodies=[ball([arm, 0, 1.0], mass)]))
    joint = world.add_joint("revolute", (0, 1), (0, 0, 1.0), axis=(0, 1, 0),
                            motor={"max_force": 100.0, "stiffness": 2000.0, "damping": 100.0})
    world.step(240)
    j = world.joints
    assert abs(j.position[joint]) < 0.01
    assert abs(j.motor_force[joint]) == pytest.approx(mass * G * arm, rel=0.01)
    assert j.force[joint, 2] == pytest.approx(mass * G, rel=0.01)
    assert np.allclose(j.force[joint, :2], 0.0, atol=1e-3 * mass * G)


# --- Motors and targets


def turntable(bodies=1, mass=1.0, arm=0.3):
    """Balls on hinges with a vertical axis (their weight exerts no torque about it)."""
    balls = [ball([arm, 1.0 * k, 1.0], mass) for k in range(bodies)]
    world = heavyball.World(scene(bodies=balls))
    for k in range(bodies):
        world.add_joint("revolute", (0, k + 1), (0, 1.0 * k, 1.0), axis=(0, 0, 1))
    return world, sphere_inertia(mass, 0.05) + mass * arm**2


def test_a_servo_driven_with_set_joint_targets_reaches_its_target():
    world, _ = turntable(bodies=2)
    for joint in range(2):
        world.set_joint_motor(joint, max_force=20.0, stiffness=50.0, damping=5.0)
    targets = np.array([1.0, -0.6])
    world.set_joint_targets(positions=targets, velocities=np.zeros(2))
    j = world.joints
    assert j.motor_enabled.all() and np.array_equal(j.target_position, targets)
    world.step(int(3.0 / world.dt))
    j = world.joints
    assert np.max(np.abs(j.position - targets)) < 1e-3, j.position
    assert np.max(np.abs(j.velocity)) < 1e-3
    # Only velocities: the position targets stay; the servo tracks a moving target.
    world.set_joint_targets(velocities=[0.5], indices=[1])
    assert world.joints.target_position[1] == -0.6 and world.joints.target_velocity[1] == 0.5


def test_a_velocity_motor_reaches_its_speed_and_a_weak_one_accelerates_at_its_force():
    world, inertia = turntable(bodies=2)
    world.set_joint_motor(0, velocity=2.0, max_force=10.0)
    world.set_joint_motor(1, velocity=100.0, max_force=0.05)  # saturated throughout
    seconds = 1.0
    world.step(int(seconds / world.dt))
    j = world.joints
    assert j.velocity[0] == pytest.approx(2.0, abs=1e-4)
    # Saturated: the motor pushes with its whole force, and w = F t / I.
    assert j.motor_force[1] == pytest.approx(0.05, rel=1e-6)
    assert j.velocity[1] == pytest.approx(0.05 * seconds / inertia, rel=0.01)
    world.set_joint_motor(0, enabled=False)
    assert not world.joints.motor_enabled[0]


def test_a_limit_stops_the_motor_and_pushes_back_with_its_force():
    world, _ = turntable()
    world.set_joint_motor(0, velocity=1.0, max_force=3.0)
    world.set_joint_limit(0, -0.2, 0.2)
    world.step(240)
    j = world.joints
    assert j.position[0] == pytest.approx(0.2, abs=2e-3)
    # At rest against the limit the limit takes the motor's whole force.
    assert j.upper_force[0] == pytest.approx(3.0, rel=0.01) and j.lower_force[0] == 0.0
    world.clear_joint_limit(0)
    world.step(60)
    assert world.joints.position[0] > 0.5


def test_a_spring_swings_with_its_period():
    world, inertia = turntable()
    stiffness, rest = 2.0, 0.3
    world.set_joint_spring(0, stiffness=stiffness, rest=rest)
    t, q, _ = run(world, int(6.0 / world.dt))
    zeros = crossings(t, q[:, 0], rest)
    assert len(zeros) >= 8
    period = np.mean(zeros[2:] - zeros[:-2])
    assert period == pytest.approx(2 * math.pi * math.sqrt(inertia / stiffness), rel=0.005)
    assert np.max(q[:, 0]) == pytest.approx(2 * rest, rel=0.01)  # undamped: it keeps its swing
    assert world.joints.spring_force[0] == pytest.approx(stiffness * (rest - q[-1, 0]), abs=0.02)
    # With damping c the swing decays as exp(-c t / (2 I)).
    world.set_joint_spring(0, stiffness=stiffness, damping=0.02, rest=rest)
    t, q, _ = run(world, int(6.0 / world.dt))
    x = q[:, 0] - rest
    peaks = np.nonzero((x[1:-1] > x[:-2]) & (x[1:-1] >= x[2:]) & (x[1:-1] > 0))[0] + 1
    assert len(peaks) >= 4
    decay = -np.polyfit(t[peaks], np.log(x[peaks]), 1)[0]
    assert decay == pytest.approx(0.02 / (2 * inertia), rel=0.02)


def push(world, body, pivot, torque):
    """A force at the body's centre across its arm from the pivot: `torque` about the hinge."""
    arm = world.positions[body] - pivot
    arm[2] = 0.0
    across = np.array([-arm[1], arm[0], 0.0]) / np.linalg.norm(arm)
    world.apply_force(body, across * torque / np.linalg.norm(arm))


def test_friction_holds_below_its_force_and_slows_above_it():
    world, inertia = turntable()
    friction, pivot = 0.2, np.array([0, 0, 1.0])
    world.set_joint_friction(0, friction)
    for _ in range(240):
        push(world, 1, pivot, 0.1)
        world.step()
    j = world.joints
    assert abs(j.position[0]) < 1e-9 and abs(j.velocity[0]) < 1e-9
    assert j.friction_force[0] == pytest.approx(-0.1, rel=1e-6)
    # Above it, the hinge turns with (torque - friction) / I.
    push(world, 1, pivot, 0.3)
    world.step()
    w0 = world.joints.velocity[0]
    for _ in range(120):
        push(world, 1, pivot, 0.3)
        world.step()
    j = world.joints
    assert (j.velocity[0] - w0) / 1.0 == pytest.approx((0.3 - friction) / inertia, rel=1e-3)
    assert j.friction_force[0] == pytest.approx(-friction, rel=1e-9)


def test_a_prismatic_spring_sags_by_its_weight_and_bounces_with_its_period():
    mass, stiffness = 0.5, 50.0
    world = heavyball.World(scene(bodies=[ball([0, 0, 1.0], mass)]))
    world.add_joint("prismatic", (0, 1), (0, 0, 1.0), axis=(0, 0, 2.0),
                    spring={"stiffness": stiffness})
    t, q, _ = run(world, int(3.0 / world.dt))
    sag = -mass * G / stiffness
    assert np.min(q[:, 0]) == pytest.approx(2 * sag, rel=0.01)
    zeros = crossings(t, q[:, 0], sag)
    period = np.mean(zeros[2:] - zeros[:-2])
    assert period == pytest.approx(2 * math.pi * math.sqrt(mass / stiffness), rel=0.005)
    np.testing.assert_allclose(world.joints.axis[0], [0, 0, 1], atol=1e-12)


# --- Scenes, and joints that go with their bodies


def test_scene_joints_and_joints_added_later_are_listed_together():
    world = heavyball.World(scene(
        bodies=[ball([0, 0, 1.0]), ball([0.5, 0, 1.0]), ball([1.0, 0, 1.0])],
        joints=[{"type": "spherical", "bodies": ["world", 0], "anchor": [0, 0, 1.5]}]))
    world.add_joint("fixed", (1, 2), (0.25, 0, 1.0))
    world.add_joint("prismatic", (2, 3), (0.75, 0, 1.0), axis=(1, 0, 0),
                    limit={"lower": -0.1, "upper": 0.1})
    j = world.joints
    assert j.type == ["spherical", "fixed", "prismatic"]
    assert j.bodies.tolist() == [[0, 1], [1, 2], [2, 3]]
    assert j.position.tolist() == [0.0, 0.0, 0.0]
    # Removing body 2 removes its two joints; the rest keep their order.
    world.remove_body(2)
    assert world.joints.type == ["spherical"] and world.joint_count == 1


# --- Bad arguments


@pytest.fixture
def two_balls():
    world = heavyball.World(scene(bodies=[ball([0, 0, 1.0]), ball([0.5, 0, 1.0])]))
    world.add_joint("revolute", (0, 1), (0, 0, 1.5), axis=(0, 1, 0),
                    motor={"max_force": 1.0, "stiffness": 10.0})
    world.add_joint("spherical", (1, 2), (0.25, 0, 1.0))
    return world


@pytest.mark.parametrize("kwargs, error, message", [
    ({"type": "hinge"}, ValueError, r"type: unknown joint type 'hinge'"),
    ({"type": 3}, ValueError, r"type: expected a string"),
    ({"bodies": (0, 9)}, IndexError, r"bodies\[1\]: no body 9 \(the world has 3 bodies"),
    ({"bodies": (-1, 1)}, IndexError, r"bodies\[0\]: no body -1"),
    ({"bodies": (1, 1)}, ValueError, r"bodies: a joint needs two different bodies"),
    ({"bodies": (1,)}, ValueError, r"bodies: expected two body indices"),
    ({"bodies": (0, 1.5)}, ValueError, r"bodies\[1\]: expected a body index"),
    ({"anchor": (0, math.nan, 0)}, ValueError, r"anchor\[1\]: not a finite number"),
    ({"anchor": (0, 0)}, ValueError, r"anchor: expected array of 3 numbers"),
    ({"axis": (0, 0, 0)}, ValueError, r"axis: must not be zero"),
    ({"limit": (1.0, -1.0)}, ValueError, r"limit: lower must not exceed upper"),
    ({"limit": 1.0}, ValueError, r"limit: expected \(lower, upper\)"),
    ({"limit": {"lower": 0, "top": 1}}, ValueError, r"limit.top: unknown key"),
    ({"limit": {"lower": 0}}, ValueError, r"limit.upper: missing"),
    ({"motor": {"velocity": 1.0}}, ValueError, r"motor.max_force: missing"),
    ({"motor": {"max_force": -1.0}}, ValueError, r"motor.max_force: expected a number >= 0"),
    ({"motor": {"max_force": 1, "speed": 2}}, ValueError, r"motor.speed: unknown key"),
    ({"motor": {"max_force": 1, "velocity": "fast"}}, ValueError,
     r"motor.velocity: expected a number"),
    ({"motor": {"max_force": 1, "position": 0.5}}, ValueError,
     r"motor.position: a position target needs a stiffness"),
    ({"motor": [1, 2]}, ValueError, r"motor: expected an object"),
    ({"spring": {"stiffness": -1}}, ValueError, r"spring.stiffness: expected a number >= 0"),
    ({"spring": {"rest": math.inf}}, ValueError, r"spring.rest: not a finite number"),
    ({"friction": -0.5}, ValueError, r"friction: expected a number >= 0"),
    ({"type": "spherical", "motor": {"max_force": 1, "velocity": 1.0}}, ValueError,
     r"add_joint: a spherical joint's motor targets are three-valued"),
    ({"type": "revolute", "motor": {"max_force": 1, "velocity": [0, 0, 1]}}, ValueError,
     r"add_joint: targetTurn and targetSpin belong to a spherical joint's motor"),
    ({"type": "fixed", "friction": 0.1}, ValueError, r"friction: a fixed joint has none"),
    ({"type": "revolute", "twist": (-1, 1)}, ValueError,
     r"twist: only a spherical joint has a twist limit"),
    ({"type": "spherical", "twist": (-4, 1)}, ValueError,
     r"add_joint: a twist limit needs -pi <= lower <= upper <= pi"),
    ({"type": "spherical", "spring": {"stiffness": 1, "rest": 0.5}}, ValueError,
     r"add_joint: a spherical joint's spring pulls its frames together"),
])
def test_bad_joints_raise_naming_the_argument_and_add_nothing(two_balls, kwargs, error, message):
    arguments = {"type": "revolute", "bodies": (1, 2), "anchor": (0.25, 0, 1.0)}
    arguments.update(kwargs)
    with pytest.raises(error, match=message):
        two_balls.add_joint(**arguments)
    assert two_balls.joint_count == 2


def test_a_ball_joint_servo_turns_the_ball_to_its_target():
    # A ball on its own ball joint, no gravity: a critically damped servo towards the rotation
    # vector (0.3, -0.2, 0.5) (the joint frame's axes are the world's) ends there at rest.
    world = heavyball.World(scene(gravity=(0, 0, 0), bodies=[ball([0, 0, 2.0], radius=0.1)]))
    inertia = sphere_inertia(1.0, 0.1)
    joint = world.add_joint("spherical", (0, 1), (0, 0, 2), axis=(0, 0, 1))
    world.set_joint_motor(joint, max_force=5.0, position=(0.3, -0.2, 0.5), stiffness=2.0,
                          damping=2.0 * math.sqrt(2.0 * inertia))
    for _ in range(360):
        world.step()
    w, x, y, z = world.orientations[1]
    s = math.sqrt(x * x + y * y + z * z)
    turn = np.array([x, y, z]) / s * 2.0 * math.atan2(s, w)
    np.testing.assert_allclose(turn, [0.3, -0.2, 0.5], atol=1e-4)
    j = world.joints
    assert j.motor_force[joint] < 1e-3  # holding it takes nothing
    # The joint's own view: its turn (the frames were the world's when added), its spin, targets.
    np.testing.assert_allclose(j.turn[joint], turn, atol=1e-12)
    np.testing.assert_allclose(j.spin[joint], world.angular_velocities[1], atol=1e-12)
    assert j.target_turn[joint].tolist() == [0.3, -0.2, 0.5] and not j.target_spin.any()


def test_ball_joints_take_turns_and_spins_from_set_joint_targets():
    # Two balls on ball joints beside a hinge, no gravity: both servos are sent to new
    # orientations in one call, then one spins on at a velocity target alone.
    balls = [ball([0, 0, 2.0], radius=0.1), ball([1, 0, 2.0], radius=0.1),
             ball([2, 0, 2.0], radius=0.1)]
    world = heavyball.World(scene(gravity=(0, 0, 0), bodies=balls))
    damping = 2.0 * math.sqrt(2.0 * sphere_inertia(1.0, 0.1))
    for body in (1, 2):
        joint = world.add_joint("spherical", (0, body), (body - 1.0, 0, 2))
        world.set_joint_motor(joint, max_force=5.0, stiffness=2.0, damping=damping)
    hinge = world.add_joint("revolute", (0, 3), (2, 0, 2))
    goals = np.array([[0.3, -0.2, 0.5], [0.0, 0.7, 0.0]])
    world.set_joint_targets(turns=goals, indices=[0, 1])
    j = world.joints
    np.testing.assert_array_equal(j.target_turn[:2], goals)
    assert j.motor_enabled[:2].all() and not j.target_spin.any()
    world.step(360)
    np.testing.assert_allclose(world.joints.turn[:2], goals, atol=1e-4)
    world.set_joint_targets(spins=[[0.0, 0.0, 0.1]], indices=[0])
    assert world.joints.target_turn[0].tolist() == [0.3, -0.2, 0.5]  # kept
    world.set_joint_motor(1, max_force=5.0, damping=damping)  # a velocity motor now
    world.set_joint_targets(spins=[[0.0, 0.0, 1.5]], indices=[1])
    world.step(60)
    np.testing.assert_allclose(world.joints.spin[1], [0, 0, 1.5], atol=1e-4)
    before = world.joints.to_dict()
    cases = [
        (dict(turns=goals), ValueError, r"joint 2 is revolute; turns and spins are"),
        (dict(turns=goals[0], indices=[0]), ValueError,
         r"turns: expected an array of shape \(1, 3\)"),
        (dict(spins=[[0, math.inf, 0]], indices=[0]), ValueError,
         r"spins\[0, 1\]: not a finite number"),
        (dict(turns=[[0, 0, 0]], indices=[1]), ValueError,
         r"turns: joint 1's motor has no stiffness, so a turn target would do nothing"),
        (dict(turns=[[0, 0, 0]], positions=[0.0], indices=[0]), ValueError,
         r"go in separate calls"),
        (dict(positions=[0.0], indices=[0]), ValueError, r"joint 0 is spherical"),
        (dict(spins=[[0, 0, 0]], indices=[hinge]), ValueError, r"joint 2 is revolute"),
    ]
    for kwargs, error, message in cases:
        with pytest.raises(error, match=message):
            world.set_joint_targets(**kwargs)
    after = world.joints.to_dict()
    for name in ("target_turn", "target_spin"):
        np.testing.assert_array_equal(before[name], after[name])


def test_a_ball_joint_spring_turns_the_ball_back_at_its_period():
    # A 1 kg ball 0.5 m below a ball joint, no gravity, turned at 0.3 rad/s about y: with
    # k = 4 pi^2 I it swings back and forth once a second; friction then stops a spin.
    world = heavyball.World(scene(gravity=(0, 0, 0), bodies=[ball([0, 0, 1.5], radius=0.05)]))
    inertia = 0.25 + sphere_inertia(1.0, 0.05)
    joint = world.add_joint("spherical", (0, 1), (0, 0, 2), axis=(0, 0, -1),
                            spring={"stiffness": 4 * math.pi**2 * inertia}, twist=(-1.0, 1.0))
    world.set_body_state(1, linear_velocity=[-0.15, 0, 0], angular_velocity=[0, 0.3, 0])
    x = []
    for _ in range(600):
        world.step()
        x.append(world.positions[1][0])
    t = np.arange(1, 601) * world.dt
    zeros = crossings(t, np.array(x))
    assert np.mean(np.diff(zeros)) == pytest.approx(0.5, rel=0.005)  # half a period apart
    assert world.joints.spring_force[joint] > 0.0
    assert world.joints.error[joint] < 1e-4


def test_bad_setter_arguments_raise_naming_them(two_balls):
    w = two_balls
    with pytest.raises(IndexError, match=r"joint: no joint 5 \(the world has 2 joints\)"):
        w.set_joint_motor(5, max_force=1.0)
    with pytest.raises(ValueError, match=r"set_joint_motor: a spherical joint's motor targets"):
        w.set_joint_motor(1, max_force=1.0, velocity=1.0)
    with pytest.raises(ValueError, match=r"set_joint_motor: targetTurn and targetSpin belong"):
        w.set_joint_motor(0, max_force=1.0, velocity=(0, 0, 1))
    w.set_joint_motor(1, max_force=1.0, velocity=(0, 0, 1))
    with pytest.raises(ValueError, match=r"set_joint_twist: only a spherical joint"):
        w.set_joint_twist(0, -0.5, 0.5)
    # A spherical joint's spring, friction and twist act on its turn.
    w.set_joint_spring(1, stiffness=1.0, damping=0.1)
    w.set_joint_friction(1, 0.2)
    w.set_joint_twist(1, -0.5, 0.5)
    # A spherical joint's limit is a cone about its axis.
    with pytest.raises(ValueError, match=r"set_joint_limit: a spherical joint's limit is a cone"):
        w.set_joint_limit(1, -1.0, 1.0)
    w.set_joint_limit(1, 0.0, 0.5)
    w.clear_joint_limit(1)
    with pytest.raises(ValueError, match=r"max_force: required"):
        w.set_joint_motor(0, velocity=1.0)
    with pytest.raises(ValueError, match=r"velocity: not a finite number"):
        w.set_joint_motor(0, velocity=math.nan, max_force=1.0)
    with pytest.raises(ValueError, match=r"max_force: expected a number >= 0"):
        w.set_joint_motor(0, max_force=-1.0)
    with pytest.raises(ValueError, match=r"position: a position target needs a stiffness"):
        w.set_joint_motor(0, max_force=1.0, position=0.5)
    with pytest.raises(ValueError, match=r"lower: must not exceed upper"):
        w.set_joint_limit(0, 1.0, -1.0)
    with pytest.raises(ValueError, match=r"stiffness: expected a number >= 0"):
        w.set_joint_spring(0, stiffness=-2.0)
    with pytest.raises(ValueError, match=r"friction: not a finite number"):
        w.set_joint_friction(0, math.inf)
    with pytest.raises(TypeError):
        w.set_joint_friction(0, "much")
    j = w.joints
    assert j.target_position[0] == 0.0 and j.upper_force[0] == 0.0


def test_bad_targets_raise_before_anything_changes(two_balls):
    w = two_balls
    w.add_joint("revolute", (0, 2), (0.5, 0, 1.5), axis=(0, 1, 0))  # joint 2: no motor yet
    before = w.joints.to_dict()
    cases = [
        (dict(positions=[0.1, 0.2], indices=[0]), ValueError,
         r"positions: expected 1 values, one per joint set"),
        (dict(velocities=[[0.1]], indices=[0]), ValueError, r"velocities: expected 1 values"),
        (dict(velocities=[0.1, math.nan], indices=[0, 2]), ValueError,
         r"velocities\[1\]: not a finite number"),
        (dict(positions=["a"], indices=[0]), ValueError,
         r"positions: expected a sequence of numbers"),
        (dict(positions=[0.1, 0.2], indices=[0, 7]), IndexError,
         r"indices\[1\]: no joint 7 \(the world has 3 joints\)"),
        (dict(positions=[0.1, 0.2], indices=[0, 0]), ValueError,
         r"indices\[1\]: joint 0 is listed twice"),
        (dict(positions=[0.1], indices=[1.0]), ValueError, r"indices\[0\]: expected a joint index"),
        (dict(positions=[0.1, 0.2], indices=[0, 1]), ValueError,
         r"indices\[1\]: joint 1 is spherical"),
        (dict(positions=[0.1, 0.2, 0.3]), ValueError, r"joint 1 is spherical"),
        (dict(velocities=[0.1, 0.2], indices=[0, 2]), ValueError,
         r"joint 2: its motor has max_force 0"),
        (dict(indices=[0]), ValueError, r"give positions, velocities or both"),
    ]
    for kwargs, error, message in cases:
        with pytest.raises(error, match=message):
            w.set_joint_targets(**kwargs)
    w.set_joint_motor(2, velocity=0.0, max_force=5.0)  # a velocity motor: no stiffness
    with pytest.raises(ValueError, match=r"positions: joint 2's motor has no stiffness"):
        w.set_joint_targets(positions=[0.1, 0.2], indices=[0, 2])
    after = w.joints.to_dict()
    for name in ("target_position", "target_velocity"):
        assert np.array_equal(before[name], after[name]), name
    # A good call with numpy arrays.
    w.set_joint_targets(positions=np.array([0.25]), velocities=np.array([0.5]),
                        indices=np.array([0]))
    assert w.joints.target_position[0] == 0.25 and w.joints.target_velocity[0] == 0.5


def test_a_urdf_gripper_is_driven_by_its_joint_names(source_dir):
    """The shipped gripper from a scene's "articulations": its joints by name, lifted 5 cm by
    set_joint_targets on the lift's servo."""
    scene = {
        "statics": [],
        "articulations": [{"urdf": str(source_dir / "assets/robots/parallel_gripper.urdf"),
                           "pose": {"p": [0, 0, 1]},
                           "drive": {"stiffness": 20000, "damping": 400}}],
    }
    world = heavyball.World(scene)
    states = world.joints
    assert states.name == ["shake", "lift", "wrist", "finger_left", "finger_right"]
    assert states.type == ["prismatic", "prismatic", "fixed", "prismatic", "prismatic"]
    lift = world.find_joint("lift")
    world.set_joint_targets(positions=[0.05], indices=[lift])
    world.step(240)
    assert abs(world.joints.position[lift] - 0.05) < 1e-3
    with pytest.raises(KeyError, match="elbow"):
        world.find_joint("elbow")
