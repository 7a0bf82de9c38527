"""Developer tools: matches, Elo, bench, openings and the compile warm-up."""
