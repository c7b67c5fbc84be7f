package io.paddlejobs.api.openapi;

/** Request documents shown in Swagger UI; tests check that each one plans cleanly. */
public final class RequestExamples {

    /** The shortest useful request: an entry point and a few numbers, everything else derived. */
    public static final String BEGINNER = """
            {
              "name": "fit-a-line",
              "entry_point": "python train.py",
              "num_cpus": 2,
              "memory": "4Gi"
            }""";

    /** Every number given: GPU trainers, fewer and bigger pservers started differently, sparse ports, env and labels. */
    public static final String ADVANCED = """
            {
              "name": "ctr-dnn",
              "entry_point": "python train.py",
              "pserver_entry_point": "python train.py --role pserver",
              "image": "paddlepaddle/paddle:2.6.1-gpu-cuda12.0-cudnn8.9-trt8.6",
              "trainers": 4,
              "trainer_gpu": 1,
              "trainer_cpu": 4,
              "trainer_mem": "16Gi",
              "pservers": 2,
              "pserver_cpu": 2,
              "pserver_mem": "8Gi",
              "ports_num_for_sparse": 2,
              "env": {"EPOCHS": "30", "GLOG_v": "1"},
              "labels": {"team": "ads", "experiment": "ctr-v2"}
            }""";

    /** Paddle 3 data parallel: trainers only, one per CPU, which all-reduce their gradients. */
    public static final String COLLECTIVE = """
            {
              "name": "data-parallel",
              "mode": "collective",
              "entry_point": "python train.py",
              "num_cpus": 2,
              "memory": "2Gi"
            }""";

    private RequestExamples() {
    }
}
