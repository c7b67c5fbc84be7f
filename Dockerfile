# syntax=docker/dockerfile:1
# Build: docker build -t paddle-jobs .
# The app targets Java 17 and runs on 25, where virtual threads serve the blocking API calls.

FROM eclipse-temurin:25-jdk AS build
WORKDIR /src
COPY .mvn/ .mvn/
COPY mvnw pom.xml ./
RUN --mount=type=cache,target=/root/.m2 ./mvnw -B -q dependency:go-offline
COPY src/ src/
RUN --mount=type=cache,target=/root/.m2 ./mvnw -B -q package -DskipTests \
    && cp target/paddle-jobs-*.jar /app.jar \
    && java -Djarmode=tools -jar /app.jar extract --layers --launcher --destination /layers

FROM eclipse-temurin:25-jre
RUN groupadd --system --gid 10001 paddlejobs \
    && useradd --system --uid 10001 --gid paddlejobs --no-create-home paddlejobs
WORKDIR /app
# Least-changing layers first, so that a code change ships only the last one.
COPY --from=build /layers/dependencies/ ./
COPY --from=build /layers/spring-boot-loader/ ./
COPY --from=build /layers/snapshot-dependencies/ ./
COPY --from=build /layers/application/ ./
USER 10001:10001
EXPOSE 8080
ENTRYPOINT ["java", "-Dspring.threads.virtual.enabled=true", "org.springframework.boot.loader.launch.JarLauncher"]
