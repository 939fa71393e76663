"""Realtime: Socket.IO (watching a game, the doorbell between processes), pushed boards, open sockets and presence."""
