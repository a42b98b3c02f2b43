"""The parts of ``engine.scoring.score.Scorer``, one job per module.

``prepared``       a rulebook prepared for scoring: rules as closures in plain tables, narrowed per situation
``inputs``         reading requests (plain JSON, validated models, or Python objects) into a hand, a situation, indicators
``checks``         situation checks: what makes a request impossible before any rule is read
``valuation``      what a hand is worth, reading by reading: yakuman, yaku, bonus han, fu, limits; the best reading
``payment_rules``  payments from the base (``PaymentRules``), and the payment API (``settle``, ``pay_tier``)
``pao``            how one win is paid among the payers when a liability (pao) item applies, for a round and a hand
``liability``      pao on one scored hand: a request's ``liable`` and ``from``
``loading``        compiled rulebooks (and the scorer of each) loaded once per process, in bounded caches

``engine.scoring.score`` puts them together as ``Scorer`` and re-exports their public names; import from there.
"""
