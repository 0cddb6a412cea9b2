"""One device per worker: GPU pinning where there are GPUs, the CPU fallback everywhere else."""
from autograder.engine.devices import DeviceSlots, visible_gpus


def test_without_gpus_every_slot_is_the_cpu(monkeypatch):
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "")
    assert visible_gpus() == []
    slots = DeviceSlots(jobs=2)
    with slots.slot() as first, slots.slot() as second:
        assert first == second == {}


def test_explicit_visible_devices_are_respected(monkeypatch):
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "2,3")
    assert visible_gpus() == ["2", "3"]
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "-1")
    assert visible_gpus() == []


def test_concurrent_workers_hold_different_gpus():
    slots = DeviceSlots(jobs=2, gpus=["0", "1"])
    with slots.slot() as first, slots.slot() as second:
        assert {first["CUDA_VISIBLE_DEVICES"], second["CUDA_VISIBLE_DEVICES"]} == {"0", "1"}
    with slots.slot() as again:
        assert again["CUDA_VISIBLE_DEVICES"] in {"0", "1"}


def test_more_workers_than_gpus_share_them_round_robin():
    slots = DeviceSlots(jobs=3, gpus=["0", "1"])
    with slots.slot() as a, slots.slot() as b, slots.slot() as c:
        assert [a, b, c] == [{"CUDA_VISIBLE_DEVICES": d} for d in ("0", "1", "0")]
