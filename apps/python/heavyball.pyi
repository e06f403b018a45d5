# Type stubs of the heavyball module (a compiled extension): what type checkers and editors see.
# tests/python/test_stubs.py checks that they name every public function, class, method and
# property of the module, and nothing it lacks.

import os
from pathlib import Path
from typing import Any, Iterator, Mapping, Optional, Sequence, Union

import numpy as np
import numpy.typing as npt

__version__: str

Vector = Union[Sequence[float], npt.NDArray[np.float64]]
Rows = Union[Sequence[Sequence[float]], npt.NDArray[np.float64]]

def query(problems: Union[dict, Sequence[dict]]) -> Union[dict, list[dict]]:
    """A `heavyball query` problem (dict) or a list of them; answers with numpy vectors."""

def query_batch(a: dict, b: dict, positions_a: npt.ArrayLike, quaternions_a: npt.ArrayLike,
                positions_b: npt.ArrayLike, quaternions_b: npt.ArrayLike, *,
                variant: Optional[str] = None, warm_start: Optional[str] = None,
                tolerance: Optional[float] = None,
                max_iterations: Optional[int] = None) -> dict[str, np.ndarray]: ...

def data_dir() -> Optional[Path]: ...
def assets() -> dict[str, dict[str, Optional[Path]]]: ...

class OffscreenRenderingError(RuntimeError): ...

class SolverSettings:
    def __getitem__(self, key: str) -> Any: ...
    def __setitem__(self, key: str, value: Any) -> None: ...
    def __iter__(self) -> Iterator[str]: ...
    def __len__(self) -> int: ...
    def __contains__(self, key: str) -> bool: ...
    def update(self, values: Mapping[str, Any]) -> None: ...
    def keys(self) -> list[str]: ...
    def to_dict(self) -> dict[str, Any]: ...

class JointStates:
    """The world's joints at one instant (world.joints): one entry per joint, in the order they
    were added (scene joints first). Read-only numpy arrays, copies that later steps leave
    unchanged; len() and `count` are the number of joints."""
    @property
    def count(self) -> int: ...
    @property
    def type(self) -> list[str]:
        """"fixed", "revolute", "prismatic" or "spherical" per joint."""
    @property
    def name(self) -> list[str]:
        """Each joint's name ("" when it has none; a URDF joint's name, with its prefix)."""
    @property
    def bodies(self) -> npt.NDArray[np.int32]:
        """(n, 2): the world body indices A, B (0: the world)."""
    @property
    def position(self) -> npt.NDArray[np.float64]:
        """(n,) rad (revolute) or m (prismatic), zero where the joint was added; 0 for fixed
        and spherical joints."""
    @property
    def velocity(self) -> npt.NDArray[np.float64]:
        """(n,) rad/s or m/s: the rate of position."""
    @property
    def error(self) -> npt.NDArray[np.float64]:
        """(n,) m or rad: how far the joint is from holding."""
    @property
    def target_position(self) -> npt.NDArray[np.float64]:
        """(n,) rad or m: the motor's position target."""
    @property
    def target_velocity(self) -> npt.NDArray[np.float64]:
        """(n,) rad/s or m/s: the motor's velocity target."""
    @property
    def motor_enabled(self) -> npt.NDArray[np.bool_]:
        """(n,): whether the motor is on."""
    @property
    def motor_force(self) -> npt.NDArray[np.float64]:
        """(n,) N m or N: the motor's effort over the last step."""
    @property
    def spring_force(self) -> npt.NDArray[np.float64]:
        """(n,) N m or N: the spring's force over the last step."""
    @property
    def friction_force(self) -> npt.NDArray[np.float64]:
        """(n,) N m or N: the friction's force over the last step."""
    @property
    def lower_force(self) -> npt.NDArray[np.float64]:
        """(n,) N m or N, >= 0: the lower limit's push over the last step."""
    @property
    def upper_force(self) -> npt.NDArray[np.float64]:
        """(n,) N m or N, >= 0: the upper limit's push over the last step."""
    @property
    def force(self) -> npt.NDArray[np.float64]:
        """(n, 6): the held rows' reaction on B (N along the world axes, then N m about the
        joint frame's axes; docs/joints.md)."""
    @property
    def anchor(self) -> npt.NDArray[np.float64]:
        """(n, 3) m: the joint's origin in the world (on body A)."""
    @property
    def axis(self) -> npt.NDArray[np.float64]:
        """(n, 3): the joint's axis in the world (A's frame z)."""
    @property
    def turn(self) -> npt.NDArray[np.float64]:
        """(n, 3) rad: B's joint frame's turn from A's, a rotation vector along A's frame axes
        (a spherical joint's position)."""
    @property
    def spin(self) -> npt.NDArray[np.float64]:
        """(n, 3) rad/s: B's spin relative to A along A's frame axes."""
    @property
    def target_turn(self) -> npt.NDArray[np.float64]:
        """(n, 3) rad: a spherical joint's motor's orientation target; 0 for the others."""
    @property
    def target_spin(self) -> npt.NDArray[np.float64]:
        """(n, 3) rad/s: a spherical joint's motor's spin target; 0 for the others."""
    def to_dict(self) -> dict[str, Any]:
        """Every entry above (but count) in a dict."""
    def __len__(self) -> int: ...

class World:
    def __init__(self, scene: Union[str, os.PathLike, dict], base_dir: Optional[os.PathLike] = None,
                 threads: int = 0) -> None: ...
    @staticmethod
    def from_json(text: str, base_dir: Optional[os.PathLike] = None, threads: int = 0) -> World: ...
    threads: int
    gravity: npt.NDArray[np.float64]
    @property
    def solver(self) -> SolverSettings: ...
    def step(self, count: int = 1) -> None: ...
    def reset(self) -> None: ...
    def save_state(self) -> bytes: ...
    def restore_state(self, snapshot: bytes) -> None: ...
    def add_body(self, body: dict, base_dir: Optional[os.PathLike] = None) -> int: ...
    def remove_body(self, body: int) -> None: ...
    def set_body_state(self, body: int, position: Optional[Vector] = None,
                       orientation: Optional[Vector] = None,
                       linear_velocity: Optional[Vector] = None,
                       angular_velocity: Optional[Vector] = None) -> None: ...
    def set_states(self, indices: Sequence[int], positions: Optional[Rows] = None,
                   orientations: Optional[Rows] = None, linear_velocities: Optional[Rows] = None,
                   angular_velocities: Optional[Rows] = None) -> None: ...
    def apply_impulse(self, body: int, point: Vector, impulse: Vector) -> None: ...
    def apply_force(self, body: int, force: Vector, point: Optional[Vector] = None) -> None: ...
    def apply_torque(self, body: int, torque: Vector) -> None: ...
    def set_external_force(self, body: int, force: Vector,
                           torque: Vector = ...) -> None: ...
    def set_material(self, body: int, friction: Optional[float] = None,
                     restitution: Optional[float] = None) -> None: ...
    def set_mass(self, body: int, mass: float) -> None: ...
    def contacts(self) -> dict[str, np.ndarray]: ...
    def body_contact_impulse(self, body: int) -> npt.NDArray[np.float64]: ...
    def add_joint(self, type: str, bodies: Sequence[int], anchor: Vector,
                  axis: Vector = (0.0, 0.0, 1.0),
                  limit: Optional[Union[Sequence[float], Mapping[str, float]]] = None,
                  motor: Optional[Mapping[str, float]] = None,
                  spring: Optional[Mapping[str, float]] = None, friction: float = 0.0,
                  twist: Optional[Union[Sequence[float], Mapping[str, float]]] = None) -> int:
        """Adds a joint at the bodies' current poses, given in the world as a scene file's
        "joints" entry: type "fixed", "revolute", "prismatic" or "spherical"; bodies (A, B),
        world body indices, 0 the world; anchor (m) and axis (normalised); limit (lower, upper)
        or {"lower", "upper"} (rad or m, from where the joint starts); motor {"max_force"
        (required), "velocity", "position", "stiffness", "damping"}; spring {"stiffness",
        "damping", "rest"}; friction (N m or N). A spherical joint's limit is a cone about the
        axis, its twist (lower, upper) a limit of its turn about it (rad), and its spring and
        friction act on its turn. Returns the joint's index. ValueError naming the argument for
        a bad value, IndexError for a body that does not exist."""
    def set_joint_motor(self, joint: int, velocity: Union[float, Sequence[float]] = 0.0,
                        max_force: Optional[float] = None,
                        position: Optional[Union[float, Sequence[float]]] = None,
                        stiffness: float = 0.0, damping: float = 0.0,
                        enabled: bool = True) -> None:
        """Replaces a revolute, prismatic or spherical joint's motor: a velocity motor
        (stiffness and damping 0) drives the joint to `velocity` with at most `max_force`; with
        a stiffness or damping it is a PD servo towards `position` and `velocity`. enabled=False
        turns it off (max_force may then be left out). On a spherical joint the targets are three numbers
        along its frame A's axes (the turn as a rotation vector, rad; the spin, rad/s) and
        max_force bounds the torque's magnitude."""
    def set_joint_targets(self, positions: Optional[npt.ArrayLike] = None,
                          velocities: Optional[npt.ArrayLike] = None,
                          indices: Optional[Sequence[int]] = None,
                          turns: Optional[npt.ArrayLike] = None,
                          spins: Optional[npt.ArrayLike] = None) -> None:
        """Sets the motor targets of the joints in `indices` (default: every joint), one value
        per joint, and turns their motors on, keeping gains and force limits; leaving one of a
        pair out keeps those targets. Revolute and prismatic joints take positions and
        velocities; spherical joints, in a call of their own, turns and spins ((n, 3): rotation
        vectors, rad, and rad/s, along the joint frame A's axes). All checked before anything
        changes."""
    def set_joint_limit(self, joint: int, lower: float, upper: float) -> None:
        """Limits a revolute (rad) or prismatic (m) joint's position to [lower, upper]; a
        spherical joint's limit is a cone about its axis (lower 0, upper the half-angle)."""
    def clear_joint_limit(self, joint: int) -> None:
        """Removes a joint's limit."""
    def set_joint_twist(self, joint: int, lower: float, upper: float) -> None:
        """Limits a spherical joint's twist, its turn about its axis, to [lower, upper] (rad,
        within [-pi, pi])."""
    def set_joint_spring(self, joint: int, stiffness: float = 0.0, damping: float = 0.0,
                         rest: float = 0.0) -> None:
        """A passive spring-damper on a revolute or prismatic joint, or on a spherical joint's
        turn (rest 0); zeros remove it."""
    def set_joint_friction(self, joint: int, friction: float) -> None:
        """Dry friction on a revolute, prismatic or spherical joint (N m or N); 0 removes
        it."""
    @property
    def joints(self) -> JointStates:
        """The joints' state now (JointStates: numpy arrays, copies)."""
    @property
    def joint_count(self) -> int: ...
    def find_joint(self, name: str) -> int:
        """The index of the joint of that name (KeyError when there is none)."""
    def record(self, path: Union[str, os.PathLike], overwrite: bool = False) -> None: ...
    def stop_recording(self) -> None: ...
    @property
    def positions(self) -> npt.NDArray[np.float64]: ...
    @property
    def orientations(self) -> npt.NDArray[np.float64]: ...
    @property
    def linear_velocities(self) -> npt.NDArray[np.float64]: ...
    @property
    def angular_velocities(self) -> npt.NDArray[np.float64]: ...
    @property
    def sleeping(self) -> npt.NDArray[np.bool_]: ...
    @property
    def static(self) -> npt.NDArray[np.bool_]: ...
    @property
    def body_substeps(self) -> npt.NDArray[np.int32]: ...
    @property
    def names(self) -> list[str]: ...
    @property
    def body_count(self) -> int: ...
    @property
    def time(self) -> float: ...
    @property
    def step_count(self) -> int: ...
    @property
    def dt(self) -> float: ...
    @property
    def kinetic_energy(self) -> float: ...
    @property
    def energy_gain(self) -> float: ...
    @property
    def non_finite(self) -> bool: ...
    @property
    def escaped_bodies(self) -> int: ...
    @property
    def last_step(self) -> dict[str, Any]: ...

class Renderer:
    def __init__(self, world: World, width: int = 640, height: int = 480) -> None: ...
    def render(self, camera: Optional[dict] = None) -> npt.NDArray[np.uint8]: ...
    def depth(self) -> npt.NDArray[np.float32]: ...
    def segmentation(self) -> npt.NDArray[np.int32]: ...
    def rays(self, camera: Optional[dict] = None) -> dict[str, Any]: ...
    @property
    def camera(self) -> dict[str, Any]: ...
