"""Run llama.cpp's own HTTP server (through xllamacpp) on 127.0.0.1 until SIGTERM or SIGINT.

Usage: ``python serve_llama.py MODEL.gguf PORT``. A separate process, so the test session can
stop it for certain (no server threads left in pytest) and a runaway generation cannot stall it.
"""

from __future__ import annotations

import signal
import sys

import xllamacpp


def main(gguf: str, port: int) -> None:
    params = xllamacpp.CommonParams()
    params.model.path = gguf
    params.hostnames = ["127.0.0.1"]
    params.port = port
    params.model_alias = {"local"}
    params.n_ctx = 8192  # the analyst's prompts (system, data summary, results) run to a few thousand tokens
    params.n_parallel = 1  # one slot gets the whole context; requests are serial anyway
    # One thread, which never spins: the tests run in parallel workers on the same two cores, where
    # two threads meeting at a barrier after every operation made a 24 s turn take over 300 s.
    params.cpuparams.n_threads = 1
    params.cpuparams_batch.n_threads = 1
    params.cpuparams.poll = 0
    params.cpuparams_batch.poll = 0
    params.sampling.seed = 7  # same answers from run to run, as far as the server allows
    params.verbosity = 0
    server = xllamacpp.Server(params)  # serves until this process ends
    signal.sigwait({signal.SIGTERM, signal.SIGINT})
    del server


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
