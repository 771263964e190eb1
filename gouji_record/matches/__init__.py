"""Matches (多局) and the one verdict (裁定): the tribute between hands, the first lead, the
standings, and each hand of a file judged within its match."""
