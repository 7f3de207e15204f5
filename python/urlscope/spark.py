"""urlscope on Spark DataFrames: `parse_batch` and `check_batch` on the executors.

Each function adds one struct column, computed with ``DataFrame.mapInArrow``: Spark hands each
executor's Python worker Arrow record batches, which go to urlscope whole (no row-by-row Python
code). On a cluster the driver and the executors need this package, pyarrow, and pandas 2.2 or
later (Spark's Arrow path, ``mapInArrow`` included, refuses to run without it):
``pip install 'urlscope-whatwg[spark]'`` on each node, or a packed virtual environment
(``spark.archives``). The column must be a string column (or all null): another type is a
``TypeError`` when the plan is built, naming the column and its type. The output column must
not be in the DataFrame already (a second ``parse`` of one column needs another ``output``),
nor the column be one of two of the same name: each is a ``ValueError`` when the plan is
built. Column names with dots, and other columns that share a name, are kept as they are.
"""

from __future__ import annotations

from typing import Iterable, Optional, Sequence, Union

import urlscope


def _small(t):
    """`t` with Spark's Arrow types: strings and lists with 32-bit offsets, and signed integers
    (Spark has no unsigned type: an error's span and a position are 64-bit there)."""
    import pyarrow as pa

    if pa.types.is_large_string(t) or pa.types.is_string_view(t):
        return pa.string()
    if pa.types.is_unsigned_integer(t):
        return pa.int64()
    if pa.types.is_list(t) or pa.types.is_large_list(t):
        return pa.list_(pa.field(t.value_field.name, _small(t.value_type), t.value_field.nullable))
    if pa.types.is_struct(t):
        return pa.struct(
            [pa.field(t.field(i).name, _small(t.field(i).type), t.field(i).nullable) for i in range(t.num_fields)]
        )
    return t


def _check_string_column(df, column: str) -> None:
    """A `TypeError` when the plan is built, rather than a Java stack trace at the action."""
    from pyspark.sql.types import NullType, StringType

    data_type = df.schema[column].dataType
    if not isinstance(data_type, (StringType, NullType)):
        raise TypeError(
            f"column {column!r} is {data_type.simpleString()}, not a string: urlscope reads "
            f"URLs from a string column (cast it first: F.col({column!r}).cast('string'))"
        )


def _add_column(df, column: str, output: str, result_type, compute):
    import pyarrow as pa
    from pyspark.sql.pandas.types import from_arrow_type
    from pyspark.sql.types import StructField, StructType

    names = list(df.columns)
    if column not in names:
        raise ValueError(f"no column {column!r}; the columns are {names}")
    if names.count(column) > 1:
        raise ValueError(
            f"column {column!r} is ambiguous: the DataFrame has {names.count(column)} columns "
            "of that name (rename one first)"
        )
    # Spark resolves names regardless of case by default (spark.sql.caseSensitive).
    if output.lower() in (n.lower() for n in names):
        raise ValueError(
            f"column {output!r} is already in the DataFrame: name another output "
            f"(output='...'); parse or check of {column!r} may have added it before"
        )
    _check_string_column(df, column)
    spark_type = _small(result_type)
    index = names.index(column)
    # mapInArrow resolves each column by its name (df[name]), which reads a dot as a struct's
    # field and cannot tell apart two columns of one name: the columns pass through it under
    # names of ours, given by position (toDF), and get theirs back after. The batches carry
    # the schema's names, so Spark's Arrow reader never sees a name twice.
    inner = [f"_{i}" for i in range(len(names) + 1)]
    schema = StructType(
        [StructField(n, f.dataType, f.nullable) for n, f in zip(inner, df.schema.fields)]
        + [StructField(inner[-1], from_arrow_type(spark_type), True)]
    )

    def batches(iterator):
        for batch in iterator:
            result = compute(batch.column(index)).cast(spark_type)
            yield pa.RecordBatch.from_arrays(list(batch.columns) + [result], names=inner)

    return df.toDF(*inner[:-1]).mapInArrow(batches, schema).toDF(*names, output)


def parse(
    df,
    column: str,
    fields: Union[None, str, Iterable[str]] = None,
    output: Optional[str] = None,
    base: Union[None, str, urlscope.URL] = None,
):
    """`df` with a struct column `output` (`<column>_url` by default): `parse_batch` of `column`.

    Each Python worker parses its batches on one thread: Spark runs one worker per core. The
    fields, and the base, are checked on the driver when the plan is built.
    """
    fields = urlscope._fields(fields)
    base = urlscope._base(base)
    result_type = urlscope.parse_batch([], fields=fields, base=base).type
    return _add_column(
        df,
        column,
        output or f"{column}_url",
        result_type,
        lambda urls: urlscope.parse_batch(urls, base=base, fields=fields, jobs=1),
    )


def check(
    df,
    column: str,
    allow_hosts: Union[None, str, Sequence[str]] = None,
    fail_on: str = "danger",
    output: Optional[str] = None,
    deny_internal: bool = False,
):
    """`df` with a struct column `output` (`<column>_check` by default): `check_batch` of `column`.

    `allow_hosts` (a host or a sequence of hosts) and `deny_internal` are `check_batch`'s gate,
    judged on the built-in parsers' readings; an entry that cannot be a host raises
    ``ValueError`` here, on the driver, before any job runs.
    """
    allow = urlscope._allow_hosts(allow_hosts)
    result_type = urlscope.check_batch(
        [], allow_hosts=allow, fail_on=fail_on, deny_internal=deny_internal
    ).type
    return _add_column(
        df,
        column,
        output or f"{column}_check",
        result_type,
        lambda urls: urlscope.check_batch(
            urls, allow_hosts=allow, fail_on=fail_on, jobs=1, deny_internal=deny_internal
        ),
    )


# Whether `register` makes Arrow UDFs where PySpark has them (tests turn it off to run the
# pandas UDFs of PySpark before 4.1 on this one).
_ARROW_UDF = True


def _sql_function(result_type, compute):
    """A Spark SQL function of one string column giving `result_type`, computed on Arrow batches:
    an Arrow UDF where PySpark has them (4.1 and later), else a pandas UDF over the same Arrow
    result."""
    import pyarrow as pa
    from pyspark.sql.pandas.types import from_arrow_type

    spark_type = _small(result_type)
    return_type = from_arrow_type(spark_type)
    try:
        from pyspark.sql.functions import arrow_udf
    except ImportError:
        arrow_udf = None
    if not _ARROW_UDF:
        arrow_udf = None
    if arrow_udf is not None:

        def run(urls):
            return compute(urls).cast(spark_type)

        # The module's annotations are strings (`from __future__ import annotations`), which
        # PySpark's type-hint inference cannot read: the function type is given.
        run.__annotations__ = {"urls": pa.Array, "return": pa.Array}
        return arrow_udf(run, return_type)

    import pandas as pd
    from pyspark.sql.functions import pandas_udf

    def run_pandas(urls):
        result = compute(pa.array(urls, pa.string())).cast(spark_type)
        if pa.types.is_struct(spark_type):
            return pa.Table.from_struct_array(result).to_pandas()
        return result.to_pandas()

    run_pandas.__annotations__ = {"urls": pd.Series, "return": pd.DataFrame if pa.types.is_struct(spark_type) else pd.Series}
    return pandas_udf(run_pandas, return_type)


def register(
    spark,
    fields: Union[None, str, Iterable[str]] = None,
    allow_hosts: Union[None, str, Sequence[str]] = None,
    deny_internal: bool = False,
    fail_on: str = "danger",
    prefix: str = "urlscope_",
):
    """Makes urlscope callable from Spark SQL in `spark`'s session, and returns the names.

    ``urlscope_parse(url)`` is `parse_batch`'s struct (of `fields`, all by default),
    ``urlscope_href(url)`` and ``urlscope_host(url)`` its href and hostname as strings, and
    ``urlscope_check(url)`` `check_batch`'s struct with the gate given here (`allow_hosts`,
    `deny_internal`, `fail_on`, judged on the built-in parsers' readings, as :func:`check`).
    Each runs on the executors on Arrow batches, one thread per Python worker. The gate's
    entries and the fields are checked here, on the driver: a bad one raises ``ValueError``.
    `prefix` names the functions (``urlscope_``)."""
    fields = urlscope._fields(fields)
    allow = urlscope._allow_hosts(allow_hosts)
    parse_type = urlscope.parse_batch([], fields=fields).type
    check_type = urlscope.check_batch([], allow_hosts=allow, fail_on=fail_on, deny_internal=deny_internal).type

    def one(name):
        def compute(urls):
            return urlscope.parse_batch(urls, fields=[name], jobs=1).field(name)

        return compute

    import pyarrow as pa

    functions = {
        "parse": _sql_function(parse_type, lambda urls: urlscope.parse_batch(urls, fields=fields, jobs=1)),
        "href": _sql_function(pa.string(), one("href")),
        "host": _sql_function(pa.string(), one("hostname")),
        "check": _sql_function(
            check_type,
            lambda urls: urlscope.check_batch(
                urls, allow_hosts=allow, fail_on=fail_on, jobs=1, deny_internal=deny_internal
            ),
        ),
    }
    names = []
    for short, function in functions.items():
        spark.udf.register(prefix + short, function)
        names.append(prefix + short)
    return names
