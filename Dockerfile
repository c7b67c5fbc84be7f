# syntax=docker/dockerfile:1
# Build: docker build -t paddle-jobs .
# The app targets Java 17 and runs on 25, where virtual threads serve the blocking API calls, and
# where an AOT cache (JEP 483/514: classes loaded and linked, and method profiles, from a training
# run) roughly halves the start-up; with C1 only (below) it is ready in about 2 s on 2 cores
# (scripts/startup-time measures it the same way: the lines marked "the image").

FROM eclipse-temurin:25-jdk AS build
WORKDIR /src
COPY .mvn/ .mvn/
COPY mvnw pom.xml ./
RUN --mount=type=cache,target=/root/.m2 ./mvnw -B -q dependency:go-offline
# Only the main sources: the tests are neither compiled nor run (and their client is not generated:
# it is made from openapi/, which is not copied in), so a change to a test builds nothing again.
COPY src/main/ src/main/
# Extracted without the launcher: the application jar with its lib/ beside it, a plain class
# path, which is what the AOT cache is keyed on.
RUN --mount=type=cache,target=/root/.m2 ./mvnw -B -q package -Dmaven.test.skip=true -Dcodegen.skip=true \
    && cp target/paddle-jobs-*.jar /app.jar \
    && java -Djarmode=tools -jar /app.jar extract --layers --destination /layers --application-filename app.jar

FROM eclipse-temurin:25-jre
# data/ is the local backend's data root (paddlejobs.local.data-root, relative to /app): the service's
# user must be able to write it, where nothing else in /app is writable.
RUN groupadd --system --gid 10001 paddlejobs \
    && useradd --system --uid 10001 --gid paddlejobs --no-create-home paddlejobs \
    && install -d -o paddlejobs -g paddlejobs /app/data
WORKDIR /app
# Least-changing layers first, so that a code change ships only the last ones.
COPY --from=build /layers/dependencies/ ./
COPY --from=build /layers/spring-boot-loader/ ./
COPY --from=build /layers/snapshot-dependencies/ ./
COPY --from=build /layers/application/ ./
# The training run: starts the context and stops once it is refreshed, writing the cache. It starts
# as deploy/ runs the image (kubernetes backend and security mode), against an API server that is
# not there (a refused port on loopback: the informers only retry), so that the cache holds the
# Kubernetes client's classes too; trained on the local backend, the kubernetes backend's start
# gained little from it. The local backend still starts from it (scripts/startup-time).
RUN java -XX:AOTCacheOutput=app.aot -Dspring.context.exit=onRefresh \
        -Dpaddlejobs.local.data-root=/tmp/training -jar app.jar --server.port=0 \
        --paddlejobs.backend=kubernetes --paddlejobs.security.mode=kubernetes \
        --paddlejobs.kubernetes.master-url=https://127.0.0.1:9 \
    && rm -rf /tmp/training
USER 10001:10001
EXPOSE 8080
# C1 only: on a pod's one or two cores, the C2 compiler's work during the start (about as much CPU
# as the start itself) no longer competes with it. The price is steady-state speed (about 30 % fewer
# dry-run submits per second once warm); the service mostly waits on processes and the API server.
# JDK_JAVA_OPTIONS= (empty) at run time gives C2 back.
ENV JDK_JAVA_OPTIONS="-XX:TieredStopAtLevel=1"
ENTRYPOINT ["java", "-XX:AOTCache=app.aot", "-Dspring.threads.virtual.enabled=true", "-jar", "app.jar"]
