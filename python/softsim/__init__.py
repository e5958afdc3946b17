"""softsim from Python: load a scene, run it step by step or to the end, read and change the state
as numpy arrays, steer boundary motions and moving obstacles between steps, read energies,
contact forces and Newton statistics, and write the same frames as the command line.

    import softsim
    sim = softsim.Simulation(softsim.Scene.load("scenes/box_stack.json"), out_dir="out")
    sim.run(callback=lambda s: print(s.t, s.last["newton_iterations"]))

Bad input raises ValueError with the message the CLI prints; a failure during a run,
RuntimeError. docs/python.md has the whole guide.
"""
from __future__ import annotations

import json as _json
import os as _os
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Union

import numpy as _np

from . import _softsim

__version__: str = _softsim.__version__
__all__ = ["Scene", "Simulation", "run", "set_threads", "threads", "__version__"]

PathLike = Union[str, "_os.PathLike[str]"]


def set_threads(threads: int) -> None:
    """Limits the threads softsim uses (0: all cores, the default), like `softsim run --threads`."""
    _softsim.set_threads(threads)


def threads() -> int:
    """The number of threads softsim uses."""
    return _softsim.threads()


def _json_value(value: Any) -> Any:
    # numpy scalars and arrays, which json cannot serialise, as Python numbers and lists.
    if isinstance(value, _np.ndarray):
        return value.tolist()
    if isinstance(value, _np.generic):
        return value.item()
    raise TypeError(f"a value of type {type(value).__name__} cannot be part of a scene")


class Scene:
    """A scene, read and validated exactly as `softsim run` reads it (docs/scene-format.md)."""

    def __init__(self, native: "_softsim.Scene") -> None:
        self._native = native

    @staticmethod
    def load(path: PathLike) -> "Scene":
        """Reads a scene file. Raises ValueError with the CLI's message if it is not a valid scene."""
        return Scene(_softsim.Scene.load(_os.fspath(path)))

    @staticmethod
    def from_dict(scene: Mapping[str, Any], name: str = "<dict>", base_dir: Optional[PathLike] = None) -> "Scene":
        """A scene from a dict with the layout of a scene file. `name` stands for the file in error
        messages; relative mesh paths are read from `base_dir` (default: the working directory).
        numpy numbers and arrays are accepted as values."""
        try:
            text = _json.dumps(scene, allow_nan=False, default=_json_value)
        except ValueError:
            raise ValueError(f"{name}: a value is NaN or infinite, which a scene cannot hold") from None
        except TypeError as e:
            raise ValueError(f"{name}: {e}") from None
        return Scene(_softsim.Scene.from_json_text(text, name, _os.fspath(base_dir) if base_dir else ""))

    @staticmethod
    def default() -> "Scene":
        """The built-in default scene (what `softsim run` runs without a scene file)."""
        return Scene(_softsim.Scene.default())

    @property
    def file(self) -> str:
        """The scene's file, or the name it was given."""
        return self._native.file

    @property
    def dim(self) -> int:
        """Space dimension, 2 or 3."""
        return self._native.dim

    @property
    def dt(self) -> float:
        """Time step (s)."""
        return self._native.dt

    @property
    def steps(self) -> int:
        """Number of steps the scene asks for."""
        return self._native.steps

    @property
    def integrator(self) -> str:
        """The integrator's name in the scene format (e.g. "backward_euler")."""
        return self._native.integrator

    @property
    def bodies(self) -> List[str]:
        """The bodies' names, in the scene's order."""
        return self._native.bodies

    @property
    def obstacles(self) -> List[str]:
        """The obstacles' names, in the scene's order."""
        return self._native.obstacles

    def __repr__(self) -> str:
        return repr(self._native)


class Simulation:
    """A run of a scene, driven from Python through the loop the CLI runs.

    With `out_dir`, the run writes what `softsim run --out out_dir` writes (frames, stats.csv,
    summary.json, checkpoints as the scene asks), bit for bit the same; without it nothing is
    written. `steps` overrides the scene's step count; `progress` shows the CLI's progress bar on
    stderr; `resume` continues the run whose checkpoint is in `out_dir`.

    Between steps the state can be read and changed: `x` and `v` are (vertices, dim) numpy arrays
    that view the run's own memory (writes go through, and they stay valid for the whole run);
    prescribed motions take new targets (`steer_motion`) and moving obstacles new velocities
    (`set_obstacle_velocity`). Ctrl-C during `step` or `run` ends the run as the CLI's does
    (checkpoint written when there is an `out_dir`) and raises KeyboardInterrupt.
    """

    def __init__(self, scene: Union[Scene, PathLike, Mapping[str, Any]], out_dir: Optional[PathLike] = None,
                 steps: Optional[int] = None, progress: bool = False, resume: bool = False) -> None:
        if isinstance(scene, Mapping):
            scene = Scene.from_dict(scene)
        elif not isinstance(scene, Scene):
            scene = Scene.load(scene)
        self.scene: Scene = scene
        self._sim = _softsim.Simulation(scene._native, None if out_dir is None else _os.fspath(out_dir), steps,
                                        progress, resume)

    # Stepping ------------------------------------------------------------------------------------
    def step(self) -> bool:
        """Advances one step (and writes its outputs). Returns False once the run has ended: all
        steps done, a step failed, or interrupted; `report` says which."""
        return self._sim.step()

    def run(self, steps: Optional[int] = None, callback: Optional[Callable[["Simulation"], Optional[bool]]] = None,
            every: int = 1) -> Dict[str, Any]:
        """Runs `steps` more steps, or to the end of the run when None. `callback(sim)` is called
        after every `every` steps; returning False stops early (the run can go on later). When
        the run has ended, writes summary.json (finish). Returns the report."""
        if every < 1:
            raise ValueError("every must be at least 1")
        done = 0
        while self._sim.running and (steps is None or done < steps):
            more = self._sim.step()
            done += 1
            if callback is not None and (done % every == 0 or not more):
                if callback(self) is False:
                    break
            if not more:
                break
        if not self._sim.running:
            self._sim.finish()
        return self.report

    def interrupt(self) -> None:
        """Ends the run as interrupted after the last finished step, writing a checkpoint (with an
        out_dir) that `softsim run --resume` or `Simulation(..., resume=True)` continues."""
        self._sim.interrupt()

    def finish(self) -> Dict[str, Any]:
        """Ends the run and writes summary.json with its final status; returns the report. A run
        ended before its last step is interrupted (checkpoint written with an out_dir, status
        "interrupted"), so it can be resumed."""
        return self._sim.finish()

    def write_frame(self) -> None:
        """Writes a frame of the current state (with an out_dir; frames are also written every
        output.every steps and at the end)."""
        self._sim.write_frame()

    def __enter__(self) -> "Simulation":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.finish()

    # State ---------------------------------------------------------------------------------------
    @property
    def running(self) -> bool:
        """True until the run has ended."""
        return self._sim.running

    @property
    def x(self) -> _np.ndarray:
        """Positions (m), (vertices, dim), a writable view of the run's state."""
        return self._sim.x

    @x.setter
    def x(self, value: Any) -> None:
        self._sim.x = value

    @property
    def v(self) -> _np.ndarray:
        """Velocities (m/s), (vertices, dim), a writable view of the run's state."""
        return self._sim.v

    @v.setter
    def v(self, value: Any) -> None:
        self._sim.v = value

    @property
    def t(self) -> float:
        """Simulated time (s)."""
        return self._sim.t

    @property
    def dt(self) -> float:
        """Time step (s)."""
        return self._sim.dt

    @property
    def dim(self) -> int:
        """Space dimension."""
        return self._sim.dim

    @property
    def step_index(self) -> int:
        """The last finished step (0 before the first)."""
        return self._sim.last["step"]

    @property
    def steps_requested(self) -> int:
        """The step the run ends at."""
        return self._sim.steps_requested

    @property
    def integrator(self) -> str:
        """The stepper's name."""
        return self._sim.integrator

    @property
    def rest_positions(self) -> _np.ndarray:
        """Positions at t = 0 before any initial stretch (a copy), (vertices, dim)."""
        return self._sim.rest_positions

    @property
    def masses(self) -> _np.ndarray:
        """Mass of each vertex (kg)."""
        return self._sim.masses

    @property
    def bodies(self) -> List[Dict[str, Any]]:
        """Each body's name, first vertex, vertex and element counts (moving mesh obstacles too)."""
        return self._sim.bodies

    def body_vertices(self, name: str) -> slice:
        """The rows of `x` and `v` that belong to body `name`."""
        return self._sim.body_vertices(name)

    def surface_triangles(self, name: str) -> _np.ndarray:
        """Body `name`'s boundary triangles (edges in 2D) as rows of `x`."""
        return self._sim.surface_triangles(name)

    # What the last step measured -------------------------------------------------------------
    @property
    def last(self) -> Dict[str, Any]:
        """The last step's row of stats.csv: step, t, newton_iterations, linear_iterations,
        residual, kinetic, potential, total_energy (J), min_distance (m), wall_ms, krylov_dimension,
        converged, substeps."""
        return self._sim.last

    @property
    def min_distance(self) -> float:
        """The smallest distance between surfaces after the last step (m; inf without contact)."""
        return self._sim.last["min_distance"]

    @property
    def report(self) -> Dict[str, Any]:
        """status ("running", "ok", "failed", "interrupted"), steps_done, steps_requested,
        failed_steps, subdivided_steps, wall_seconds, message."""
        return self._sim.report

    def energies(self) -> Dict[str, float]:
        """The potential's terms at the current state by name (J; e.g. "elasticity(neo_hookean)",
        "ipc_contact", "obstacle_barrier"), "external_work" (-x . f_ext, gravity and loads) and "kinetic"."""
        return self._sim.energies()

    def contacts(self) -> Dict[str, Any]:
        """The barrier contacts at the current state (IPC between and within bodies, and against
        analytic obstacles), as columns: kind ("point_triangle", "edge_edge", "point_edge",
        "point_point", "point_obstacle"), vertices (n, 4; rows of x, -1 unused, static obstacle
        vertices from len(x) on), distance (m), term (the energy term). Penalty and constraint
        contact are not listed here (see contact_forces for the latter)."""
        return self._sim.contacts()

    def contact_forces(self) -> Dict[str, Any]:
        """Constraint contact (contact.type "constraint"): the last step's contacts as columns
        kind, vertices (n, 4; -1 unused), gap (m), normal_force, tangential_force (N), force
        (n, 3; N). Empty for the other contact models."""
        return self._sim.contact_forces()

    # Steering between steps -------------------------------------------------------------------
    @property
    def motions(self) -> List[str]:
        """Labels of the prescribed motions (the scene's selection paths, e.g. "bodies[1].fixed[0]")."""
        return self._sim.motions

    def motion_offset(self, label: str, t: Optional[float] = None) -> List[float]:
        """Offset (m) from their initial positions of the vertices of motion `label` at time t (now).
        For a motion that also turns (`angular_velocity`), the translation only: its rotation
        centre's offset."""
        return self._sim.motion_offset(label, t)

    def steer_motion(self, label: str, target: Sequence[float], duration: Optional[float] = None) -> None:
        """Moves motion `label`'s vertices linearly from where they are now to the offset `target`
        (m, from their initial positions, as the scene's paths) in `duration` seconds (default one
        step), then holds them there. Refused for a motion that turns, and for the fixed vertices
        of a reduced body (its basis holds them)."""
        self._sim.steer_motion(label, [float(c) for c in target], duration)

    @property
    def moving_obstacles(self) -> List[str]:
        """Names of the moving mesh obstacles."""
        return self._sim.moving_obstacles

    def set_obstacle_velocity(self, name: str, velocity: Sequence[float]) -> None:
        """Velocity (m/s) of moving obstacle `name` from the next step on (its travel limit lifted)."""
        self._sim.set_obstacle_velocity(name, [float(c) for c in velocity])

    def obstacle_velocity(self, name: str) -> List[float]:
        """The current velocity of moving obstacle `name` (m/s)."""
        return self._sim.obstacle_velocity(name)

    def __repr__(self) -> str:
        return (f"<softsim.Simulation {self.scene.file}: step {self.step_index}/{self.steps_requested}, "
                f"t = {self.t:g} s, {self.report['status']}>")


def run(scene: Union[Scene, PathLike, Mapping[str, Any]], out_dir: Optional[PathLike] = None,
        steps: Optional[int] = None, progress: bool = True,
        callback: Optional[Callable[[Simulation], Optional[bool]]] = None, every: int = 1) -> Dict[str, Any]:
    """Runs a scene to the end, as `softsim run SCENE --out OUT_DIR` does; returns the report."""
    return Simulation(scene, out_dir=out_dir, steps=steps, progress=progress).run(callback=callback, every=every)
