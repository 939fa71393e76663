"""The domain: games played, seats, deals, histories, records and bots, with no web framework
(what it needs of the application, the store and the settings, it is given as arguments)."""
