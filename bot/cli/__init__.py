"""The command line: `parley run | play | web | bench | db | ratings | simulate`."""
