"""The students' JupyterLab: a notebook opens unmodified.

The released notebooks carry `language_info: {"name": "python"}` only (the release strips what
depends on the machine, such as the Python version). When a kernel starts, JupyterLab writes the
kernel's full `language_info` into the notebook, which marks it modified the moment it opens. This
contents manager, named in `jupyter/jupyter_server_config.json`, fills in the same values when it
hands a python3 notebook to JupyterLab, so there is nothing left to change. Files on disk are untouched.
"""
from __future__ import annotations

import functools
from typing import Any

from jupyter_server.services.contents.largefilemanager import AsyncLargeFileManager


@functools.cache
def python_language_info() -> dict[str, Any]:
    """The `language_info` this environment's ipykernel reports (the kernel runs on this Python)."""
    from ipykernel.ipkernel import IPythonKernel

    return dict(IPythonKernel.language_info)


class StudentContentsManager(AsyncLargeFileManager):
    """Jupyter's default contents manager, plus a python3 notebook's `language_info` on load."""

    async def get(self, path: str, content: bool = True, type: str | None = None, format: str | None = None,
                  **kwargs: Any) -> dict[str, Any]:
        model = await super().get(path, content=content, type=type, format=format, **kwargs)
        if content and model.get("type") == "notebook" and model.get("content") is not None:
            metadata = model["content"].metadata
            if metadata.get("kernelspec", {}).get("name") == "python3" \
                    and metadata.get("language_info", {}).get("name", "python") == "python":
                metadata["language_info"] = python_language_info()
        return model
