"""The brains: the judgement each agent's graph delegates, one package per agent in one shape.

``brain/<agent>/`` holds ``contract.py`` (what the brain sees and answers, and its protocol),
``offline/`` (deterministic rules that need no model), ``llm.py`` (the same judgements as
structured calls to any chat model) and ``prompts.py`` (what that model is told), for the
analyst, the EDA pipeline, the investigator and the knowledge chat. Beside them: ``factory``
(a brain from a ``provider:model`` spec), ``structured`` (structured answers from a chat model,
and the base every model-backed brain starts from), ``grounding`` (numbers must come from
somewhere), ``results`` (the result line generated code prints), ``lexicon`` (the business words,
Japanese and English, that the offline analyst and EDA brains read), ``text`` (text folded for
matching), ``language`` and ``streaming``.
"""
