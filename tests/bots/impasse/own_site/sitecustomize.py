"""A bot's own sitecustomize (for the coverage tests): it must run as it would without
prototest, and coverage is then off. It only marks that it ran."""
import os

os.environ["OWN_SITECUSTOMIZE_RAN"] = "1"
