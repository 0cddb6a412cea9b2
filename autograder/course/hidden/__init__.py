"""Hidden test inputs, one module per lesson. Instructor only: never shipped to students."""
