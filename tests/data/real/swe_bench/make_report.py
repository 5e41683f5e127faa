"""SWE-bench's own make_run_report over 15 SWE-bench Lite instance ids: per-instance report.json
files as the harness writes them (4 resolved, 8 not; one instance has no report: an error), one
empty patch, one instance without a prediction, and a Docker client (a stand-in: no Docker
here) that still holds every instance's image and two of the run's containers."""
import json
from pathlib import Path

from swebench.harness.constants import RUN_EVALUATION_LOG_DIR
from swebench.harness.reporting import make_run_report
from swebench.task.checks import expected_image

ids = ["astropy__astropy-12907", "astropy__astropy-14182", "astropy__astropy-14365",
       "astropy__astropy-14995", "astropy__astropy-6938", "astropy__astropy-7746",
       "django__django-10914", "django__django-10924", "django__django-11001",
       "django__django-11019", "django__django-11039", "django__django-11049",
       "django__django-11099", "django__django-11133", "django__django-11179"]
resolved = {"astropy__astropy-12907", "astropy__astropy-14995", "django__django-10914",
            "django__django-11099"}
model, run_id = "acme/coder-7b", "lite-run2"
dataset = [{"instance_id": i, "image": expected_image(i)} for i in ids]
predictions = {i: {"instance_id": i, "model_name_or_path": model,
                   "model_patch": "" if i == "django__django-11133" else "diff --git a/x b/x"}
               for i in ids if i != "django__django-11179"}
for i in predictions:
    if i in ("django__django-11133", "django__django-11049"):
        continue        # an empty patch is not run; 11049's run wrote no report: an error
    folder = RUN_EVALUATION_LOG_DIR / run_id / model.replace("/", "__") / i
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "report.json").write_text(json.dumps({i: {"resolved": i in resolved}}))


class Named:
    def __init__(self, name=None, tags=()):
        self.name, self.tags = name, list(tags)


class Listing:
    def __init__(self, items):
        self.items = items

    def list(self, all=False):
        return self.items


class Client:       # what make_run_report asks of docker.DockerClient
    images = Listing([Named(tags=[d["image"]]) for d in dataset])
    containers = Listing([Named(f"sweb.eval.{i}.{run_id}")
                          for i in ("django__django-11049", "django__django-11099")])


make_run_report(predictions, dataset, run_id, client=Client())
