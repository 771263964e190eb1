"""Running over many hands and machines (批量): streaming files hand by hand, worker
processes, a Dask cluster, outputs written whole or not at all."""
