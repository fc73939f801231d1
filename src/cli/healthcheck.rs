//! `mneme healthcheck`: asks the running daemon on this machine whether it is healthy, for
//! container health checks (the image has no curl): its `/healthz` when the web channel is on,
//! else the heartbeat file it keeps in `data_dir`. Exit 0 when healthy, 1 otherwise.

use std::net::IpAddr;
use std::process::ExitCode;
use std::time::Duration;

use crate::config::Config;
use crate::health;

/// Where this machine reaches the web channel: a wildcard address is asked on loopback.
pub fn healthz_url(config: &Config) -> String {
    let web = &config.channels.web;
    let host = match web.host.trim() {
        "0.0.0.0" | "localhost" | "" => "127.0.0.1",
        "::" => "::1",
        h => h,
    };
    match host.parse::<IpAddr>() {
        Ok(IpAddr::V6(ip)) => format!("http://[{ip}]:{}/healthz", web.port),
        _ => format!("http://{host}:{}/healthz", web.port),
    }
}

pub async fn run(config: &Config) -> anyhow::Result<ExitCode> {
    if !config.channels.web.enabled {
        let path = health::heartbeat_path(&config.data_dir);
        return Ok(match health::read_heartbeat(&path, health::unix_now()) {
            Ok(h) => {
                println!("{}", h.body);
                if h.healthy {
                    ExitCode::SUCCESS
                } else {
                    ExitCode::from(1)
                }
            }
            Err(why) => {
                eprintln!("{why}");
                ExitCode::from(1)
            }
        });
    }
    let url = healthz_url(config);
    let client = reqwest::Client::builder()
        .timeout(Duration::from_secs(5))
        .build()?;
    match client.get(&url).send().await {
        Ok(resp) => {
            let healthy = resp.status().is_success();
            println!("{}", resp.text().await.unwrap_or_default());
            Ok(if healthy {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            })
        }
        Err(e) => {
            eprintln!("{url}: no answer ({e}); is `mneme start` running?");
            Ok(ExitCode::from(1))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wildcard_hosts_are_asked_on_loopback() {
        let mut c = Config::default();
        assert_eq!(healthz_url(&c), "http://127.0.0.1:10961/healthz");
        c.channels.web.host = "0.0.0.0".into();
        c.channels.web.port = 8080;
        assert_eq!(healthz_url(&c), "http://127.0.0.1:8080/healthz");
        c.channels.web.host = "::".into();
        assert_eq!(healthz_url(&c), "http://[::1]:8080/healthz");
        c.channels.web.host = "192.168.1.5".into();
        assert_eq!(healthz_url(&c), "http://192.168.1.5:8080/healthz");
    }
}
