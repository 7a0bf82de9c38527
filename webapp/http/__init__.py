"""Pages, the JSON API, health checks and cookies: the site's HTTP side."""
