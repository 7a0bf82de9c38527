"""Accounts: the visitor's own page and name form, sign-up, log-in and log-out, CSRF
tokens for forms, login sessions, and profiles; the people tables' data access."""
