"""A lead's campaigns in the browser: judge accounts (created with a one-time password,
activated after an import), judges assigned per corpus, the corpus's settings, and a
page per corpus with each judge's progress and who judged what."""
