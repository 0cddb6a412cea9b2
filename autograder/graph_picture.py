"""The lessons' public name for pictures of graphs: `from autograder.graph_picture import show_graph`
(see `autograder.notebook.graph_picture`). Released notebooks import it under this name."""
from autograder.notebook.graph_picture import DEFAULT_COLLAPSE, show_graph

__all__ = ["DEFAULT_COLLAPSE", "show_graph"]
