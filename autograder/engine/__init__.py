"""The engine: runs untrusted kernels and brings back what they displayed, and nothing else.

Bubblewrap sandboxes (`sandbox`), the last confinement step inside them (`jail`), cgroups, warm
zygotes that fork kernels (`zygote`, `forkserver`), the nanny of an unsandboxed kernel, per-kernel
`limits`, one device per worker (`devices`), reading what a kernel wrote without trusting it
(`untrusted`), and executing a notebook in such a kernel (`kernel`).

May import: the engine itself, `autograder.inkernel` (the probe cells it appends and the quiet
environment) and `autograder.course.spec` (the cases it sends). Never the judging or a front end:
the engine does not know what a verdict is.
"""
