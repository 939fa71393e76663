"""Pages: what a viewer sees of a game (the board, the presenters, the filters), shared by the HTTP
answers and the pushed boards."""
