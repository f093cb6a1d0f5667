"""Score an agent on careem-mcp's task suite (docs/TASKS.md) and print pass^k.

For each task and each of k tries, the harness makes a run of its own into the task's start
(`careem-mcp tasks start`), hands the user's request and the run's MCP URL to your agent, then
grades the run by its end state (`careem-mcp tasks grade`). It prints each task's passes and the
suite's pass^1 … pass^k, the share of tasks an agent solves in every one of k tries (τ²-bench's
estimator over the tries made), and exits 1 when a task failed a try: gate CI on it.

Your agent is an async function that takes the request and the URL of a Streamable HTTP MCP
server, and works until it would answer the user (what it says is not graded):

    # my_agent.py
    async def agent(request: str, mcp_url: str) -> None:
        async with mcp.Client(mcp_url, mode="legacy") as client:
            ...  # let your model call client.call_tool(...) until it answers

Usage, beside a running `careem-mcp serve --stateful` of the project:

    python examples/task_harness.py --agent my_agent.py:agent --url http://127.0.0.1:8787 --tries 4
    python examples/task_harness.py --agent my_agent:agent --tags rides --json report.json

Exit codes: 0 every try of every task passed, 1 a try failed, 2 the harness could not run.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import importlib.util
import json
import subprocess
import sys
import traceback
from dataclasses import dataclass, field
from math import comb
from pathlib import Path
from typing import Any, Awaitable, Callable

Agent = Callable[[str, str], Awaitable[None]]


class HarnessError(Exception):
    """The harness cannot go on: careem-mcp failed, or the agent cannot be loaded."""


@dataclass
class Careem:
    """The careem-mcp command line, on one project."""

    binary: str
    project: str | None

    def run(self, *args: str) -> subprocess.CompletedProcess[str]:
        command = [self.binary]
        if self.project:
            command += ["--project", self.project]
        return subprocess.run(command + list(args), capture_output=True, text=True, check=False)

    def json(self, *args: str, allow: tuple[int, ...] = (0,)) -> Any:
        done = self.run(*args, "--format", "json")
        if done.returncode not in allow:
            raise HarnessError(f"careem-mcp {' '.join(args)}: exit {done.returncode}: {done.stderr.strip()}")
        return json.loads(done.stdout)


@dataclass
class Try:
    run: str
    passed: bool
    differences: list[str] = field(default_factory=list)
    calls: int = 0


def load_agent(spec: str) -> Agent:
    """`path/to/file.py:function` or `module:function`."""
    where, _, name = spec.rpartition(":")
    if not where or not name:
        raise HarnessError(f"--agent {spec!r}: expected FILE.py:FUNCTION or MODULE:FUNCTION")
    if where.endswith(".py"):
        loaded = importlib.util.spec_from_file_location(Path(where).stem, where)
        if loaded is None or loaded.loader is None:
            raise HarnessError(f"--agent {spec!r}: cannot load {where}")
        module = importlib.util.module_from_spec(loaded)
        loaded.loader.exec_module(module)
    else:
        module = importlib.import_module(where)
    agent = getattr(module, name, None)
    if agent is None:
        raise HarnessError(f"--agent {spec!r}: {where} has no {name}")
    return agent


def pass_hat_k(tries: dict[str, list[Try]], k: int) -> float:
    """The chance that k tries of a task, drawn from those made, all pass, averaged over tasks."""
    scores = []
    for made in tries.values():
        n, c = len(made), sum(t.passed for t in made)
        scores.append(comb(c, k) / comb(n, k))
    return sum(scores) / len(scores) if scores else 0.0


async def score(careem: Careem, agent: Agent, url: str, tasks: list[dict], k: int) -> dict[str, list[Try]]:
    results: dict[str, list[Try]] = {}
    for task in tasks:
        made = results.setdefault(task["id"], [])
        for n in range(1, k + 1):
            run = f"{task['id'][:56]}-try{n}"
            started = careem.json("tasks", "start", task["id"], "--run", run)
            try:
                await agent(started["request"], url.rstrip("/") + started["path"])
            except Exception:  # the agent's failure is the try's, not the harness's
                print(f"  {run}: the agent raised:\n{traceback.format_exc()}", file=sys.stderr)
            graded = careem.json("tasks", "grade", task["id"], "--run", run, allow=(0, 1))
            made.append(
                Try(run, graded["passed"], graded["differences"] + graded["broken_checks"], graded["calls"])
            )
        passes = sum(t.passed for t in made)
        print(f"{'ok  ' if passes == k else 'FAIL'} {task['id']}: {passes}/{k} tries passed")
        for failed in (t for t in made if not t.passed):
            for line in failed.differences:
                print(f"       {failed.run}: {line}")
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--agent", required=True, help="FILE.py:FUNCTION or MODULE:FUNCTION")
    parser.add_argument("--url", default="http://127.0.0.1:8787", help="the server's address")
    parser.add_argument("--tries", type=int, default=1, help="k, the tries of each task")
    parser.add_argument("--task", action="append", default=[], help="only this task (repeatable)")
    parser.add_argument("--tags", action="append", default=[], help="only tasks with this tag (repeatable)")
    parser.add_argument("--careem-mcp", default="careem-mcp", help="the careem-mcp binary")
    parser.add_argument("--project", help="the project folder the server serves")
    parser.add_argument("--json", type=Path, help="also write the report here")
    args = parser.parse_args()
    if args.tries < 1:
        parser.error("--tries is at least 1")
    try:
        careem = Careem(args.careem_mcp, args.project)
        agent = load_agent(args.agent)
        tasks = careem.json("tasks", "list")
        known = {task["id"] for task in tasks}
        unknown = [task for task in args.task if task not in known]
        if unknown:
            raise HarnessError(f"no task {', '.join(unknown)} (careem-mcp tasks list)")
        tasks = [
            task
            for task in tasks
            if (not args.task or task["id"] in args.task)
            and (not args.tags or set(args.tags) & set(task.get("tags", [])))
        ]
        if not tasks:
            raise HarnessError("no task matches --task and --tags")
        results = asyncio.run(score(careem, agent, args.url, tasks, args.tries))
    except (HarnessError, OSError, json.JSONDecodeError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    solved = sum(all(t.passed for t in made) for made in results.values())
    figures = {f"pass^{k}": pass_hat_k(results, k) for k in range(1, args.tries + 1)}
    print(f"{solved}/{len(results)} tasks passed every try; " + ", ".join(f"{name} {value:.3f}" for name, value in figures.items()))
    if args.json:
        report = {
            **figures,
            "tries": args.tries,
            "tasks": {
                task: [{"run": t.run, "passed": t.passed, "differences": t.differences, "calls": t.calls} for t in made]
                for task, made in results.items()
            },
        }
        args.json.write_text(json.dumps(report, indent=2) + "\n")
    return 0 if solved == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
