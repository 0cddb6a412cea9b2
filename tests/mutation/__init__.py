"""Machine-made mutants of the solutions (`make mutants`): do the tests tell right from wrong?

`operators` makes mutants of a solution cell, `generate` gives each a stable id, `lean` cuts the
notebook down to what one exercise needs, `equivalent` reads the triaged survivors, and
`python -m tests.mutation` grades everything in one warm batch and prints each exercise's kill
rate and survivors.
"""
