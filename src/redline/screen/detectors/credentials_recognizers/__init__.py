"""Recognizer families of the `credentials` detector (see `credentials.py`).

- `vendor`: vendor key and token formats (literal prefix, alphabet, length, entropy);
- `structured`: PEM blocks, passwords in URLs, Authorization headers, curl --user,
  Kubernetes Secret data, AWS secret keys, Bundler credentials;
- `assignment`: values assigned to password / secret / token / key names;
- `urls`: webhook URLs and keys written as a path segment;
- `entropy`: random-looking strings that nothing else explains;
- `_guards`: entropy and placeholder tests they share.
"""
