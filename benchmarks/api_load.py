"""Load on the REST API: concurrent sessions of different users, each asking questions, on loopback.

    python benchmarks/api_load.py [--sessions 20] [--questions 5]

Starts `bunseki serve` on a free 127.0.0.1 port with a fresh workspace (offline brain, SQLite),
creates one user per session, and has every user upload their own table and ask the questions
one after another, all users at once. Each table has its own numbers, so an answer that quotes
another session's total is leakage. The baseline, measured in the same run, is one session
asking the same questions alone. Reports throughput, p50/p95 latency per question, errors and
leaks, and the memory of the server's warm sandboxes. Targets: 0 errors, 0 leaks; the first
question's p95 with every session starting at once ≤ 3× the lone session's first question.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import pandas as pd

from bunseki.sandbox.pool import measure
from bunseki.service import AnalysisService
from bunseki.settings import Settings

QUESTIONS = ["売上の合計は？", "地域別の売上合計は？", "関東だけにして", "売上の平均は？", "元のデータに戻して"]
REGIONS = ["北海道", "東北", "関東", "中部", "近畿", "九州"]
TIMEOUT_S = 180.0
FIRST_QUESTION_TARGET = 3.0  # × the lone session's first question, measured in the same run
API = "/api/v1/analysis/sessions"


def table(index: int, rows: int = 2_000) -> pd.DataFrame:
    """A table whose sales total is unique to ``index`` (so answers show whose data they used)."""
    sales = [(index + 1) * 1_000 + (row % 97) for row in range(rows)]
    return pd.DataFrame({"地域": [REGIONS[row % len(REGIONS)] for row in range(rows)], "売上": sales})


@dataclass
class Run:
    """What one session saw: latency per question, errors, and whose numbers its answers quoted."""

    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    leaks: list[str] = field(default_factory=list)


def converse(url: str, key: str, index: int, totals: dict[int, int], questions: list[str]) -> Run:
    run = Run()
    headers = {"Authorization": f"Bearer {key}"}
    buffer = io.BytesIO()
    table(index).to_csv(buffer, index=False)
    with httpx.Client(base_url=url, headers=headers, timeout=TIMEOUT_S) as client:
        created = client.post(API, files={"file": (f"売上_{index}.csv", buffer.getvalue())})
        if created.status_code != 201:
            run.errors.append(f"upload {created.status_code}: {created.text[:200]}")
            return run
        session = created.json()["id"]
        for question in questions:
            began = time.perf_counter()
            try:
                response = client.post(f"{API}/{session}/chat", json={"message": question})
            except httpx.HTTPError as exc:
                run.errors.append(f"{question}: {type(exc).__name__}: {exc}")
                continue
            run.latencies.append(time.perf_counter() - began)
            if response.status_code != 200 or response.json()["status"] != "finalized":
                run.errors.append(f"{question}: {response.status_code} {response.text[:200]}")
                continue
            answer = response.json()["message"]
            if question == QUESTIONS[0] and not _quotes(answer, totals[index]):
                run.errors.append(f"{question}: the answer lacks this session's total: {answer[:120]}")
            others = [i for i, total in totals.items() if i != index and _quotes(answer, total)]
            run.leaks.extend(f"session {index} quoted session {i}'s total" for i in others)
        listed = [s["id"] for s in client.get(API).json()]
        if listed != [session]:
            run.leaks.append(f"session {index}'s user sees {len(listed)} sessions")
    return run


def _quotes(text: str, number: int) -> bool:
    """Whether ``text`` shows ``number`` as a whole number (12,095,000 does not show 2,095,000)."""
    return re.search(rf"(?<![\d,.]){re.escape(f'{number:,}')}(?![\d,])", text) is not None


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def serve(root: Path) -> tuple[subprocess.Popen[bytes], str]:
    """A server on a free port, once its warm sandboxes are ready (the lone session gets one too)."""
    port = free_port()
    command = [sys.executable, "-m", "bunseki", "serve", "--port", str(port), "--workspace-root", str(root)]
    environment = {**os.environ, "BUNSEKI_OPEN_SESSIONS": "32"}
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=environment)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    wanted = Settings().sandbox_pool_size
    while time.monotonic() < deadline:
        try:
            health = httpx.get(f"{url}/health", timeout=1)
            if health.status_code == 200 and health.json()["warm_sandboxes"] >= wanted:
                return server, url
        except httpx.TransportError:
            pass
        time.sleep(0.1)
    server.kill()
    raise SystemExit("bunseki serve did not come up within 60 s")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))] if ordered else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", type=int, default=20)
    parser.add_argument("--questions", type=int, default=len(QUESTIONS), choices=range(1, len(QUESTIONS) + 1))
    args = parser.parse_args()
    questions = QUESTIONS[: args.questions]
    totals = {i: int(table(i)["売上"].sum()) for i in range(args.sessions + 1)}
    with tempfile.TemporaryDirectory(prefix="bunseki-load-") as directory:
        root = Path(directory)
        root.chmod(0o711)  # the sandbox user (when we are root) must be able to enter it
        with AnalysisService(Settings(workspace_root=root)) as service:
            keys = [service.accounts.create(f"user{i}")[1] for i in range(args.sessions + 1)]
        server, url = serve(root)
        try:
            began = time.perf_counter()
            alone = converse(url, keys[-1], args.sessions, totals, questions)  # the baseline: one session
            alone_s = time.perf_counter() - began
            began = time.perf_counter()
            with ThreadPoolExecutor(args.sessions) as pool:
                runs = list(pool.map(lambda i: converse(url, keys[i], i, totals, questions), range(args.sessions)))
            wall = time.perf_counter() - began
        finally:
            server.terminate()
            server.wait(30)
    latencies = [value for run in runs for value in run.latencies]
    first = [run.latencies[0] for run in runs if run.latencies]  # includes starting the session's sandbox
    later = [value for run in runs for value in run.latencies[1:]]
    errors = [error for run in runs for error in run.errors]
    leaks = [leak for run in runs for leak in run.leaks]
    turns = len(latencies)
    report = {
        "sessions": args.sessions,
        "questions_per_session": len(questions),
        "turns": turns,
        "wall_s": round(wall, 2),
        "throughput_turns_per_s": round(turns / wall, 2),
        "p50_s": round(statistics.median(latencies), 3) if latencies else None,
        "p95_s": round(percentile(latencies, 0.95), 3),
        "first_question_p50_s": round(statistics.median(first), 3) if first else None,
        "first_question_p95_s": round(percentile(first, 0.95), 3),
        "baseline_alone_first_question_s": round(alone.latencies[0], 3) if alone.latencies else None,
        "later_questions_p50_s": round(statistics.median(later), 3) if later else None,
        "later_questions_p95_s": round(percentile(later, 0.95), 3),
        "errors": len(errors),
        "leaks": len(leaks),
        "baseline_alone_p50_s": round(statistics.median(alone.latencies), 3) if alone.latencies else None,
        "baseline_alone_turns_per_s": round(len(alone.latencies) / alone_s, 2),
        "cpus": os.cpu_count(),
        "warm_pool": measure(Settings()),
    }
    if alone.latencies and latencies:
        report["p50_ratio_vs_alone"] = round(statistics.median(latencies) / statistics.median(alone.latencies), 2)
        report["throughput_ratio_vs_alone"] = round((turns / wall) / (len(alone.latencies) / alone_s), 2)
    if first and alone.latencies:
        report["first_question_p95_ratio_vs_alone"] = round(percentile(first, 0.95) / alone.latencies[0], 2)
    print(json.dumps(report, ensure_ascii=False, indent=2))
    ratio = report.get("first_question_p95_ratio_vs_alone")
    if ratio is not None:
        mark = "PASS" if ratio <= FIRST_QUESTION_TARGET else "MISS"
        print(
            f"{mark}  first question p95 with {args.sessions} sessions starting at once: "
            f"{ratio:g}× the lone session's first question (target ≤ {FIRST_QUESTION_TARGET:g}×)"
        )
    for problem in (errors + alone.errors + leaks)[:20]:
        print("  ", problem, file=sys.stderr)
    if errors or leaks or alone.errors:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
