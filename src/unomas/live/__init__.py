"""Live play: the host of every interactive table (a room, the terminal game, an agent's table)
and its ports, the store and the outbox."""
