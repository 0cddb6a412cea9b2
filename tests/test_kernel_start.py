"""The engine's wait for a new kernel (`sandbox.PromptClient`): it returns once shell and IOPub both
answer, and a kernel that dies before answering is an error, not a hang."""
import asyncio

import pytest

from autograder.engine.sandbox import PromptClient, SandboxedKernelManager


async def _started(wrapper: list[str]) -> tuple[SandboxedKernelManager, PromptClient]:
    km = SandboxedKernelManager(wrapper=wrapper)
    await km.start_kernel()
    kc = km.client()
    kc.start_channels()
    return km, kc


async def _stop(km: SandboxedKernelManager, kc: PromptClient) -> None:
    kc.stop_channels()
    await km.shutdown_kernel(now=True)


def test_a_ready_kernel_has_iopub_connected():
    async def scenario():
        km, kc = await _started([])
        try:
            assert isinstance(kc, PromptClient)
            await kc.wait_for_ready(timeout=60)
            msg_id = kc.execute("print('hello')")
            while True:  # IOPub delivers the cell's output: it was connected when the wait returned
                msg = await kc.get_iopub_msg(timeout=30)
                if msg["parent_header"].get("msg_id") == msg_id and msg["msg_type"] == "stream":
                    assert msg["content"]["text"] == "hello\n"
                    break
        finally:
            await _stop(km, kc)

    asyncio.run(scenario())


def test_a_kernel_that_dies_before_answering_is_an_error():
    async def scenario():
        km, kc = await _started(["sh", "-c", "exit 3", "sh"])
        try:
            with pytest.raises(RuntimeError, match="died"):
                await kc.wait_for_ready(timeout=60)
        finally:
            await _stop(km, kc)

    asyncio.run(scenario())
