"""The offline analyst's own evaluation set: tables generated from a seed, questions by domain."""
