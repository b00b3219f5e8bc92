"""Transports: Discord, the web pages and the terminal, each driving the table host."""
