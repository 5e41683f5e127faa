"""A 10-question quiz for inspect_ai's mock model: one task scored by match(), and the same task
with a solver step that fails on question 7 for the model mockllm/model (fail_on_error=False:
the run goes on, and the log keeps the errored sample unscored)."""
from inspect_ai import Task, task
from inspect_ai.dataset import Sample
from inspect_ai.scorer import match
from inspect_ai.solver import generate, solver

QUESTIONS = [Sample(id=i, input=f"What is {i} + {i}? Answer with the number.", target=str(2 * i),
                    metadata={"topic": "even" if i % 2 == 0 else "odd"})
             for i in range(1, 11)]


@task
def quiz():
    return Task(dataset=QUESTIONS, solver=generate(), scorer=match())


@solver
def flaky():
    async def solve(state, generate_):
        if state.sample_id == 7 and str(state.model) == "mockllm/model":
            raise RuntimeError("the tool call timed out")
        return await generate_(state)
    return solve


@task
def quiz_flaky():
    return Task(dataset=QUESTIONS, solver=flaky(), scorer=match(), fail_on_error=False)
