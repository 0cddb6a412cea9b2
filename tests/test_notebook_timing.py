"""autograder.notebook.timing: interleaved blocks, medians, and a per-step call count."""
from autograder.notebook.timing import interleaved_timings


def test_interleaved_blocks_take_turns_and_report_median_fastest_slowest():
    ticks = iter(range(1000))
    order = []
    # A fake clock: every reading advances one second, so each block's time is known exactly.
    spreads = interleaved_timings({"a": lambda: order.append("a"), "b": lambda: order.append("b")},
                                  calls={"a": 1, "b": 2}, blocks=3, clock=lambda: next(ticks) * 1.0)
    assert order[:2] == ["a", "b"]                       # one warm-up call each
    assert order[2:] == ["a", "b", "b"] * 3              # the blocks take turns
    assert spreads == {"a": (1e6, 1e6, 1e6), "b": (0.5e6, 0.5e6, 0.5e6)}


def test_spread_is_median_min_max():
    readings = iter([0.0, 1.0, 1.0, 4.0, 4.0, 6.0])     # block times 1, 3, 2 seconds
    spreads = interleaved_timings({"only": lambda: None}, calls=1, blocks=3, clock=lambda: next(readings))
    assert spreads["only"] == (2e6, 1e6, 3e6)
