"""Each lesson's probes, one module per lesson, named like the lesson: the code that calls a
student's exercise in the kernel and returns plain values (`autograder.course.lessons` judges them)."""
