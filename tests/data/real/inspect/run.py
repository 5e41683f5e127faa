"""Runs quiz.py's tasks with inspect_ai's mock model (no network, no model API): two mock models
answer from their custom outputs, mockllm/model right on every question but multiples of 3,
mockllm/other on every one but multiples of 4, with their token usage given (the mock model
otherwise counts tokens with tiktoken, which downloads its encoding). Writes .eval logs
(inspect's default format) and a .json log of the first 4 questions."""
import re

from inspect_ai import eval
from inspect_ai.model import ModelOutput, ModelUsage, get_model

from quiz import quiz, quiz_flaky


def model(name, wrong_every):
    def answer(input, tools, tool_choice, config):
        n = int(re.search(r"What is (\d+)", input[-1].text).group(1))
        output = ModelOutput.from_content(name, str(2 * n if n % wrong_every else n))
        output.usage = ModelUsage(input_tokens=12, output_tokens=1, total_tokens=13)
        return output
    return get_model(name, custom_outputs=answer)


eval(quiz(), model=model("mockllm/model", 3), log_dir="logs", display="none")
for name, wrong_every in (("mockllm/model", 3), ("mockllm/other", 4)):
    eval(quiz_flaky(), model=model(name, wrong_every), log_dir="logs", display="none")
eval(quiz(), model=model("mockllm/model", 3), log_dir="logs-json", log_format="json", limit=4,
     display="none")
