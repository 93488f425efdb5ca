"""Analytic models of the module's scenarios.

Each submodule implements one paper's model and says which equations it follows:
:mod:`rudp.models.cmt` is the CMT receive-buffer-blocking throughput model of seed 002.
"""
