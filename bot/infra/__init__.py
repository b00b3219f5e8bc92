"""Infrastructure: the store, render and AI worker pools, the lease and shards, settings and logs."""
