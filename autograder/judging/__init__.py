"""The judging: one submission's way from a notebook file to a result record.

`submissions` turns paths into submissions, `grading` is the pipeline of small steps (read,
execute, judge, record), `reference` computes the solution's observations, `judge` turns
observations into verdicts, `feedback` renders them, and `results` writes records that are never
half-written.

May import: itself, the engine, the probe side and the course. Never a front end.
"""
