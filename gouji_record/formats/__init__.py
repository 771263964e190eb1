"""Other formats in and out (格式): JSON records, platform event logs, Parquet tables."""
