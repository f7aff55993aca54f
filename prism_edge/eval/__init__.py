"""Measuring: the baselines a user would reach for instead (incremental and hierarchical
merging, long context, lead sentences, BM25), the paper's Table 2 side by side with the
physical bound and peak memory (``bench``), and the quality measures (entity recall, needle
accuracy, the faithfulness proxy). May import everything but the application.
"""
