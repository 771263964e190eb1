"""The analyzer (分析): review of each decision, counts over many hands, picking hands."""
